import Foundation
import GRDB
import HaulTestSupport
import Testing

@testable import HaulCore

/// The store: schema, round trip, history, permissions, the state directory's lock, and a
/// stored queue continuing what an earlier run left.
@Suite("Store")
struct StoreTests {
    private func sample(_ uri: String = "https://user:secret@example.com/a.iso") throws -> Download {
        var options = DownloadOptions()
        try options.set("out", "a.iso")
        try options.set("header", "Cookie: c=1")
        try options.set("http-passwd", "hunter2")
        var download = Download(uris: [uri, "https://mirror.example.com/a.iso"], options: options)
        download.state = .active
        download.directory = "/tmp/x"
        download.destination = "/tmp/x/a.iso"
        download.completed = ByteRanges([0..<1000, 4096..<8192])
        download.totalBytes = 10_000
        download.validator = "\"v1\""
        download.attempts = 2
        download.lastError = "the server answered 503"
        return download
    }

    @Test("a download written and read back is the same, in queue order")
    func roundTrip() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        let first = try sample()
        var second = Download(uris: ["http://127.0.0.1/b"])
        second.state = .paused
        try DownloadStore(path: path).write(.init(upserts: [first, second]))
        // Opened again: the migrations already ran and run no more.
        let store = try DownloadStore(path: path)
        let contents = try store.load()
        #expect(contents.problems.isEmpty)
        #expect(contents.downloads == [first, second])

        try store.write(.init(removals: [first.id], order: [second.id]))
        #expect(try store.load().downloads.map(\.id) == [second.id])
    }

    @Test("a new store is made in write-ahead-log mode with 16 KiB pages (the file's header says so)")
    func newStoreHeader() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        try DownloadStore(path: path).write(.init(upserts: [try sample()]))
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20))
        #expect(header.count == 20 && String(decoding: header.prefix(15), as: UTF8.self) == "SQLite format 3")
        // Bytes 16-17: the page size; 18 and 19: the write and read versions, 2 for WAL.
        #expect(Array(header.suffix(4)) == [0x40, 0x00, 2, 2], "\(header)")
        #expect(try DownloadStore(path: path).load().downloads.count == 1)
    }

    @Test("the checkpointer writes progress alone as ranges and length, and a later copy of the record wins")
    func progressCheckpoint() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DownloadStore(path: directory.appendingPathComponent("haul.sqlite").path)
        let checkpointer = Checkpointer(store: store, interval: 60) { Issue.record("\($0)") }
        var download = try sample()
        checkpointer.record(.added([download]))
        checkpointer.flush()
        let ranges = ByteRanges([0..<5000])
        checkpointer.record(
            .progress(id: download.id, DownloadProgress(completed: ranges, totalBytes: 10_000, speed: 7)))
        checkpointer.flush()
        download.completed = ranges
        #expect(try store.load().downloads == [download], "only the ranges moved")
        download.state = .paused
        checkpointer.record(.stateChanged(download, from: .active))
        let more = ByteRanges([0..<6000])
        checkpointer.record(.progress(id: download.id, DownloadProgress(completed: more, totalBytes: 10_000, speed: 7)))
        checkpointer.flush()
        download.completed = more
        #expect(try store.load().downloads == [download], "progress after a copy amends the copy")
    }

    @Test("a long run of added downloads is written at once, not at the next checkpoint; later changes still are")
    func longAddWrittenAtOnce() async throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DownloadStore(path: directory.appendingPathComponent("haul.sqlite").path)
        let checkpointer = Checkpointer(store: store, interval: 60) { Issue.record("\($0)") }
        let few = (0..<10).map { Download(uris: ["http://127.0.0.1/f\($0)"]) }
        checkpointer.record(.added(few))
        let many = (0..<Checkpointer.addedBatchLimit).map { Download(uris: ["http://127.0.0.1/g\($0)"]) }
        checkpointer.record(.added(many))
        // Well before the 60 s interval: both runs are in the store, in order.
        var stored: [GID] = []
        for _ in 0..<500 where stored.count < few.count + many.count {
            try await Task.sleep(for: .milliseconds(10))
            stored = try store.load().downloads.map(\.id)
        }
        #expect(stored == (few + many).map(\.id))
        // A change after it waits for the checkpoint (here, the flush at quit).
        var paused = few[0]
        paused.state = .paused
        checkpointer.record(.stateChanged(paused, from: .queued))
        #expect(try store.load().downloads.first?.state == .queued)
        checkpointer.flush()
        #expect(try store.load().downloads.first?.state == .paused)
    }

    @Test("a queue file is queued in pieces, the store catching up every few: all stored, in order")
    func queuedInPieces() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stored = try scratchStoredQueue(in: directory, checkpointInterval: 60)
        let entries = (0..<(StoredQueue.piecesAhead * 10 + 5)).map {
            QueueEntry(uris: ["http://127.0.0.1:9/f\($0)"], options: pausedOptions())
        }
        let continuation = stored.continueOrAdd(entries, chunk: 10)
        #expect(continuation.ids.count == entries.count && stored.queue.ids == continuation.ids)
        stored.flush()
        let rows = try stored.store.load().downloads
        #expect(rows.map(\.id) == continuation.ids)
        #expect(rows.map { $0.uris.first } == entries.map { $0.uris.first })
    }

    @Test("the store file is mode 0600 in a 0700 directory, because it keeps passwords")
    func permissions() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = try StateDirectory(path: directory.appendingPathComponent("state").path)
        let store = try DownloadStore(path: state.databasePath)
        try store.write(.init(upserts: [sample()]))
        let mode = { (path: String) in
            ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
        }
        #expect(mode(state.path) == 0o700)
        for file in [state.databasePath, state.databasePath + "-wal"] {
            #expect(mode(file) == 0o600, "\(file)")
        }
    }

    @Test("a finished or failed download goes into the history once, without its password")
    func history() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DownloadStore(path: directory.appendingPathComponent("haul.sqlite").path)
        var download = try sample()
        try store.write(.init(upserts: [download]))
        download.state = .complete
        download.completed = ByteRanges([0..<10_000])
        try store.write(.init(upserts: [download]))
        try store.write(.init(upserts: [download], removals: [download.id]))
        let history = try store.history()
        #expect(history.count == 1)
        #expect(history.first?.uri == "https://user:***@example.com/a.iso")
        #expect(history.first?.bytes == 10_000 && history.first?.state == .complete)
    }

    @Test("a download added, finished and taken off in one batch leaves its history and no row")
    func endedWithinOneBatch() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DownloadStore(path: directory.appendingPathComponent("haul.sqlite").path)
        let kept = try sample()
        let finished = try sample()
        var done = finished
        done.state = .complete
        done.completed = ByteRanges([0..<10_000])
        let dropped = try sample()
        try store.write(
            .init(added: [[kept, finished, dropped]], upserts: [done], removals: [finished.id, dropped.id]))
        #expect(try store.load().downloads.map(\.id) == [kept.id])
        let history = try store.history()
        #expect(history.map(\.downloadID) == [finished.id] && history.first?.state == .complete)
    }

    /// A stored queue in `directory`'s state directory, saving into `directory`, telling
    /// `recorder` its events.
    private func storedQueue(
        in directory: URL, recorder: EventRecorder, checkpointInterval: Double = 1
    ) throws -> StoredQueue {
        try scratchStoredQueue(in: directory, checkpointInterval: checkpointInterval) { recorder.record($0) }
    }

    /// An entry for a file of `size` bytes from the fault server, `paused` or not.
    private func fileEntry(_ size: Int, paused: Bool = false) throws -> QueueEntry {
        let uri = try FaultServer.shared().url("/file/\(size)?key=\(UUID())").absoluteString
        return paused ? QueueEntry(uris: [uri], options: pausedOptions()) : QueueEntry(uris: [uri])
    }

    @Test("a run's end takes its complete downloads off the stored queue, their history kept; the others stay")
    func finishLeavesComplete() async throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = EventRecorder()
        let stored = try storedQueue(in: directory, recorder: recorder)
        let ids = stored.continueOrAdd([try fileEntry(3000), try fileEntry(4000, paused: true)]).ids
        #expect(await recorder.wait(for: [ids[0]]))
        stored.finish()
        #expect(try stored.store.load().downloads.map(\.id) == [ids[1]])
        #expect(try stored.store.history().map(\.downloadID) == [ids[0]])
    }

    @Test("settling as a run's last downloads run takes the complete ones off now; finish adds no history twice")
    func settleBeforeFinish() async throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = EventRecorder()
        // No checkpoint comes on its own within the test.
        let stored = try storedQueue(in: directory, recorder: recorder, checkpointInterval: 100)
        let ids = stored.continueOrAdd([try fileEntry(3000), try fileEntry(4000, paused: true)]).ids
        #expect(await recorder.wait(for: [ids[0]]))
        stored.settle()
        // Written by the settle itself, on the checkpointer's queue: the paused one stored, the
        // complete one in the history only.
        var left: [GID] = []
        for _ in 0..<300 where left != [ids[1]] {
            try await Task.sleep(for: .milliseconds(10))
            left = try stored.store.load().downloads.map(\.id)
        }
        #expect(left == [ids[1]])
        #expect(try stored.store.history().map(\.downloadID) == [ids[0]])
        let lastID = stored.continueOrAdd([try fileEntry(5000)]).ids[0]
        #expect(await recorder.wait(for: [lastID]))
        stored.finish()
        #expect(try stored.store.load().downloads.map(\.id) == [ids[1]])
        // Newest first, each once.
        #expect(try stored.store.history().map(\.downloadID) == [lastID, ids[0]])
    }

    @Test("one haul at a time holds a state directory; the second is told who and what to do")
    func lock() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state").path
        var first: StateDirectory? = try StateDirectory(path: path)
        #expect(first != nil)
        let error = #expect(throws: StoreError.self) { try StateDirectory(path: path) }
        #expect(error?.description.contains("pid \(getpid())") == true)
        #expect(error?.description.contains("--state-dir") == true)
        first = nil
        _ = try StateDirectory(path: path)
    }

    @Test("a store that is not a database is refused with its path")
    func corrupt() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try DownloadStore(path: path) }
        #expect(error?.description.contains(path) == true)
    }

    @Test("the default state directory follows XDG_STATE_HOME, else ~/.local/state")
    func defaultPath() {
        #expect(StateDirectory.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/haul")
        #expect(
            StateDirectory.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
                == "/h/.local/state/haul")
        #expect(StateDirectory.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/haul")
    }

    // MARK: - Restoring

    @Test("a download renamed after its last checkpoint is complete; one whose files are gone starts over")
    func reconcile() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var download = try sample()
        download.destination = directory.appendingPathComponent("a.iso").path
        try Data(count: 10_000).write(to: URL(fileURLWithPath: download.destination ?? ""))
        let renamed = StoredQueue.reconciled(download)
        #expect(renamed.state == .complete && renamed.completed == ByteRanges([0..<10_000]))

        try FileManager.default.removeItem(atPath: download.destination ?? "")
        let gone = StoredQueue.reconciled(download)
        #expect(gone.state == .active && gone.completed.isEmpty && gone.destination == nil)

        try Data(count: 8192).write(to: URL(fileURLWithPath: download.partialPath ?? ""))
        #expect(StoredQueue.reconciled(download) == download)
    }

    @Test("a file named just before a kill is this download's by its mark; one marked by another is not")
    func reconcileByMark() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var unnamed = Download(id: "00000000000000a1", uris: ["http://example.com/a.bin"])
        unnamed.directory = directory.path
        unnamed.state = .active
        unnamed.attempts = 1
        let path = directory.appendingPathComponent("a.bin").path
        try Data(count: 300).write(to: URL(fileURLWithPath: path))
        SavedFileMark.mark(path, uri: unnamed.displayURI, gid: unnamed.id, lastModified: nil)
        let found = StoredQueue.reconciled(unnamed)
        #expect(found.state == .complete && found.destination == path && found.totalBytes == 300)

        var other = unnamed
        other.id = "00000000000000b2"
        #expect(StoredQueue.reconciled(other).state == .active, "marked by another download")
        other.destination = path
        let startsOver = StoredQueue.reconciled(other)
        #expect(startsOver.state == .active && startsOver.destination == nil)
    }

    @Test("a stored queue continues an interrupted download, keeps order and moves, and adds the rest")
    func continueAndMove() async throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statePath = directory.appendingPathComponent("state").path
        var configuration = DownloadQueue.Configuration()
        configuration.directory = directory.path
        // Every body resumable: this is the partial file's test (files with no name have theirs).
        configuration.defaults.resumableAbove = 0
        let server = try FaultServer.shared()
        let key = UUID().uuidString
        // 16 KiB every 100 ms: 24 s for the whole file, so the pause comes well before its end
        // even when a busy test run is slow to wake this test; the pace is lifted afterwards.
        let slow = QueueEntry(uris: [server.url("/file/4000000?key=\(key)&pace=16384").absoluteString])
        let later = [1, 2, 3].map {
            QueueEntry(uris: [server.url("/file/\($0)000?key=\(UUID())").absoluteString], options: pausedOptions())
        }

        let firstRecorder = EventRecorder()
        var firstRun: StoredQueue? = try StoredQueue(
            opened: StoredQueue.Opened(stateDirectory: statePath), configuration: configuration,
            checkpointInterval: 0.2, onStoreError: { Issue.record("\($0)") },
            onEvent: { firstRecorder.record($0) })
        let ids = try #require(firstRun).continueOrAdd([slow] + later).ids
        try #require(firstRun).queue.move(ids[3], .top)
        #expect(await firstRecorder.wait(for: [ids[0]], until: { $0.bytesDone > 500_000 }))
        // The first run stops with the download half done (the kill -9 test covers real kills).
        try #require(firstRun).queue.pause(ids[0])
        try #require(firstRun).flush()
        firstRun = nil
        server.fileRequests.liftPace(for: key)

        // The second run, in a scope of its own so that its store is closed at the end.
        var requestCount = 0
        do {
            let recorder = EventRecorder()
            let secondRun = try await reopen(statePath, configuration: configuration, recorder: recorder)
            #expect(secondRun.stored.map(\.id) == [ids[3], ids[0], ids[1], ids[2]])
            let interrupted = try #require(secondRun.stored.first { $0.id == ids[0] })
            #expect(interrupted.completed.prefixLength > 0 && interrupted.validator == "\"v1\"")
            let fresh = QueueEntry(uris: [server.url("/file/5000?key=\(UUID())").absoluteString])
            let continuation = secondRun.continueOrAdd([slow, fresh])
            let (again, continued) = (continuation.ids, continuation.continued)
            #expect(continued == 1 && again[0] == ids[0] && again[1] != ids[0])
            #expect(await recorder.wait(for: again))
            let data = try Data(contentsOf: directory.appendingPathComponent("4000000"))
            #expect(data.count == 4_000_000 && TestPattern.matches(data))
            let requests = try FaultServer.shared().fileRequests.requests(for: key)
            #expect(requests.last?.range == "bytes=\(interrupted.completed.prefixLength)-")
            requestCount = requests.count
            secondRun.flush()
            #expect(try secondRun.store.history().count == 2)
        }

        // A run stopped after a file was saved but before it ended cleanly leaves that download
        // in the store: the same entry again is that download, complete, not a new fetch.
        let thirdRun = try StoredQueue(
            opened: StoredQueue.Opened(stateDirectory: statePath), configuration: configuration,
            onStoreError: { Issue.record("\($0)") }, onEvent: { _ in })
        let thirdContinuation = thirdRun.continueOrAdd([slow])
        let (third, continuedAgain) = (thirdContinuation.ids, thirdContinuation.continued)
        #expect(continuedAgain == 1 && third == [ids[0]])
        #expect(thirdRun.queue.download(ids[0])?.state == .complete)
        #expect(try FaultServer.shared().fileRequests.requests(for: key).count == requestCount)
    }

    @Test("a session's entry continues the stored download of the gid it names; another gid is a new download")
    func sessionGIDsContinue() async throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statePath = directory.appendingPathComponent("state").path
        var configuration = DownloadQueue.Configuration()
        configuration.directory = directory.path
        func entry(_ gid: GID) -> QueueEntry {
            var options = pausedOptions()
            options.gid = gid
            return QueueEntry(uris: ["http://127.0.0.1:9/session.bin"], options: options)
        }
        do {
            let first = try StoredQueue(
                opened: StoredQueue.Opened(stateDirectory: statePath), configuration: configuration,
                onStoreError: { Issue.record("\($0)") }, onEvent: { _ in })
            #expect(first.continueOrAdd([entry("00000000000000c1")]).ids == ["00000000000000c1"])
            first.flush()
        }
        let second = try await reopen(statePath, configuration: configuration, recorder: EventRecorder())
        let continuation = second.continueOrAdd([entry("00000000000000c2"), entry("00000000000000c1")])
        #expect(continuation.ids == ["00000000000000c2", "00000000000000c1"] && continuation.continued == 1)
        #expect(second.queue.download("00000000000000c2")?.options.gid == nil)
    }

    /// Opens the store again once the first run's lock is gone. Another test of this process
    /// starting a child at that moment holds a copy of the lock's descriptor from fork to exec
    /// (it is close-on-exec), so the lock may outlive the first run by that long.
    private func reopen(
        _ statePath: String, configuration: DownloadQueue.Configuration,
        recorder: EventRecorder
    ) async throws -> StoredQueue {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let opened = Result { () throws(StoreError) -> StoredQueue in
                try StoredQueue(
                    opened: StoredQueue.Opened(stateDirectory: statePath), configuration: configuration,
                    onStoreError: { Issue.record("\($0)") }, onEvent: { recorder.record($0) })
            }
            if case .failure(let error) = opened, error.description.contains("another haul"),
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
                continue
            }
            return try opened.get()
        }
    }

    private func pausedOptions() -> DownloadOptions {
        var options = DownloadOptions()
        options.pause = true
        return options
    }
}
