import CFiles
import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// Files with no name on a real file system: nothing in the directory until the body is
/// complete; a directory that cannot hold them (EOPNOTSUPP) gets `NAME.part` instead.
@Suite("Files with no name")
struct UnnamedFileTests {
    @Test(
        "while a small body runs its directory holds nothing; where the directory cannot, NAME.part",
        arguments: [true, false])
    func nothingUntilComplete(supported: Bool) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        if !supported {
            // What the probe of a file system without O_TMPFILE answers (EOPNOTSUPP).
            harness.queue.unnamedSupport.withLock { $0[harness.directory.path] = false }
        }
        let key = UUID().uuidString
        let id = try harness.add(
            try FaultServer.shared().url("/file/1000000?key=\(key)&pace=32768"), [("out", "s.bin")])
        // Looked at while it runs (about 3 s): a partial file shows only where the directory
        // cannot hold files with no name.
        var seen = Set<String>()
        while harness.recorder.latest(id)?.state.isFinal != true {
            seen.formUnion(try harness.files().filter { $0.hasSuffix(".part") })
            if seen.isEmpty == supported, (harness.recorder.latest(id)?.bytesDone ?? 0) > 300_000 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        // What the directory showed, each time the test looked: never a partial file where a
        // file with no name could be made. (A test task starved by a busy parallel run may look
        // too late to see the partial file at all; the record below does not depend on that.)
        #expect(seen.isSubset(of: supported ? [] : ["s.bin.part"]), "\(seen)")
        // The file had its name before its first byte arrived (the partial file's) exactly where
        // files with no name cannot be made; a file with no name is named after its bytes. The
        // queue's events keep that order whatever the load.
        let events = harness.recorder.events
        let named = events.firstIndex { event in
            switch event {
            case .stateChanged(let download, _), .updated(let download):
                download.id == id && download.destination != nil
            default: false
            }
        }
        let firstBytes = events.firstIndex { event in
            if case .progress(id, let progress) = event { return !progress.completed.isEmpty }
            return false
        }
        let namedFirst = (named ?? events.count) < (firstBytes ?? events.count)
        #expect(namedFirst == !supported, "named at event \(named ?? -1), first bytes at \(firstBytes ?? -1)")
        try FaultServer.shared().fileRequests.liftPace(for: key)
        #expect(await harness.recorder.wait(for: [id]))
        #expect(try harness.files() == ["s.bin"])
        let data = try harness.contents("s.bin")
        #expect(data.count == 1_000_000 && TestPattern.matches(data))
        #expect(SavedFileMark.gid(of: harness.directory.appendingPathComponent("s.bin").path) == id)
    }

    @Test("an out naming a folder inside the directory: the file is made and named there")
    func outInAFolder() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(
            try FaultServer.shared().url("/file/5000?key=\(UUID())"), [("out", "sub/deeper/n.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        let data = try harness.contents("sub/deeper/n.bin")
        #expect(data.count == 5000 && TestPattern.matches(data))
    }

    @Test("a name taken by another file gets the next; one already holding this download's file is that file")
    func collisionsAndOwnFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-unnamed-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("theirs".utf8).write(to: directory.appendingPathComponent("a.txt"))
        func unnamed(_ text: String) throws -> Int32 {
            let descriptor = haul_open_unnamed(directory.path, 0o644)
            try #require(descriptor >= 0)
            _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
            SavedFileMark.mark(
                descriptor: descriptor, uri: "http://x/a.txt", gid: "00000000000000aa", lastModified: nil)
            return descriptor
        }
        let first = try unnamed("mine")
        defer { close(first) }
        let named = try FileNaming.link(
            descriptor: first, as: "a.txt", in: directory.path, gid: "00000000000000aa", skipping: { _ in false })
        #expect((named as NSString).lastPathComponent == "a.1.txt")
        let again = try unnamed("mine again")
        defer { close(again) }
        #expect(
            try FileNaming.link(
                descriptor: again, as: "a.txt", in: directory.path, gid: "00000000000000aa", skipping: { _ in false })
                == named)
        #expect(try String(contentsOfFile: named, encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a.1.txt", "a.txt"])
    }

    @Test("a name whose partial file another download of the queue holds is that download's; a stale hold is not")
    func heldPartialFile() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let key = UUID().uuidString
        // Above the limit for files with no name: named, and its partial file made, at once.
        let large = try harness.add(
            server.url("/file/1000000?key=\(key)&pace=32768"), [("out", "same.bin"), ("resumable-above", "100K")])
        #expect(
            await harness.recorder.wait(untilLatest: { $0[large]?.destination != nil }),
            "the large download was never named")
        // A name held by nothing left on disk: a stale hold does not keep a file from it.
        harness.queue.partFileNames.hold(harness.directory.appendingPathComponent("free.bin").path)
        let small = try harness.add(server.url("/file/5000?key=\(UUID())"), [("out", "same.bin")])
        let free = try harness.add(server.url("/file/6000?key=\(UUID())"), [("out", "free.bin")])
        #expect(await harness.recorder.wait(for: [small, free]))
        server.fileRequests.liftPace(for: key)
        #expect(await harness.recorder.wait(for: [large]))
        #expect(harness.recorder.latest(small)?.destination?.hasSuffix("/same.1.bin") == true)
        #expect(harness.recorder.latest(large)?.destination?.hasSuffix("/same.bin") == true)
        #expect(try harness.files() == ["free.bin", "same.1.bin", "same.bin"])
        #expect(try harness.contents("same.bin").count == 1_000_000)
        #expect(try harness.contents("same.1.bin").count == 5000)
    }

    @Test("part file names: found by listing the directory, kept as files are made and saved, skipped only while there")
    func partFileNamesRecord() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-held-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = PartFileNames()
        let path = directory.appendingPathComponent("a.bin").path
        names.hold(path)
        #expect(!names.holds(path), "no partial file yet")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + ".part"))
        #expect(names.holds(path))
        names.release(path)
        #expect(!names.holds(path))
        // Another program's NAME.part, there before the listing; and a file saved as NAME.part.
        let theirs = directory.appendingPathComponent("theirs.txt").path
        try Data("t".utf8).write(to: URL(fileURLWithPath: theirs + ".part"))
        let saved = directory.appendingPathComponent("saved.bin").path
        #expect(!names.holds(theirs))
        names.list(directory.path)
        #expect(names.holds(theirs))
        try Data("s".utf8).write(to: URL(fileURLWithPath: saved + ".part"))
        #expect(!names.holds(saved), "made after the listing, unknown until saved")
        names.saved(saved + ".part")
        #expect(names.holds(saved))
    }
}
