import Foundation
import HaulCore
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulRPC

/// The UI's view of a daemon: snapshots turned into events (a table), and a `RemoteQueue`
/// attached to haul's own server, in process, over loopback.
@Suite("remote queue", .serialized)
struct RemoteQueueTests {
    /// The gid a test calls by a letter.
    static func gid(_ letter: Unicode.Scalar) -> GID { GID(UInt64(letter.value)) ?? .next() }

    static func download(
        _ letter: Unicode.Scalar, _ state: Download.State, done: Int64 = 0, name: String? = nil
    )
        -> Download
    {
        var download = Download(id: gid(letter), uris: ["http://h/\(letter)"])
        download.state = state
        download.totalBytes = 100
        if done > 0 { download.completed = ByteRanges([0..<done]) }
        download.destination = name
        return download
    }

    @Test("a snapshot's changes become the events a local queue would have sent")
    func snapshotEvents() {
        let a = Self.download("a", .active, done: 10)
        let b = Self.download("b", .queued)
        let c = Self.download("c", .paused)
        let before = RemoteSnapshot(downloads: [a, b, c], speeds: [Self.gid("a"): 5])
        let aDone = Self.download("a", .complete, done: 100, name: "/d/a")
        let d = Self.download("d", .queued)
        let after = RemoteSnapshot(downloads: [b, aDone, d], speeds: [:])
        let events = before.events(to: after)
        #expect(
            events == [
                .removed(id: Self.gid("c")), .added([d]), .moved(id: Self.gid("b"), to: 0),
                .stateChanged(aDone, from: .active),
                .progress(id: Self.gid("a"), DownloadProgress(completed: aDone.completed, totalBytes: 100, speed: 0)),
            ])
        #expect(after.events(to: after).isEmpty)
        // A running download's bytes and speed, and a name learned.
        var named = b
        named.destination = "/d/b"
        named.completed = ByteRanges([0..<40])
        let progressed = RemoteSnapshot(downloads: [named], speeds: [Self.gid("b"): 7])
        #expect(
            RemoteSnapshot(downloads: [b]).events(to: progressed) == [
                .updated(named),
                .progress(id: Self.gid("b"), DownloadProgress(completed: named.completed, totalBytes: 100, speed: 7)),
            ])
    }

    @Test("an aria2 record reads back as the download it describes; hostile text is made visible")
    func recordsReadBack() throws {
        let record: JSONValue = [
            "gid": "00000000000000ab", "status": "error", "totalLength": "1000", "completedLength": "250",
            "downloadSpeed": "0", "dir": "/srv", "errorCode": "3", "errorMessage": "gone\u{1B}[2J",
            "files": [["path": "/srv/f.iso", "uris": [["uri": "http://h/f.iso"], ["uri": "http://h/f.iso"]]]],
        ]
        let (download, _) = try #require(Aria2Status.download(from: record))
        #expect(download.state == .failed)
        #expect(download.errorCode == .notFound)
        #expect(download.lastError == "gone^[[2J")
        #expect(download.bytesDone == 250 && download.totalBytes == 1000)
        #expect(download.destination == "/srv/f.iso")
        #expect(Array(download.uris) == ["http://h/f.iso"])
        #expect(Aria2Status.download(from: ["status": "active"]) == nil)
    }

    @Test("a status has aria2's bitfield: a bit a wholly received piece of 1 MiB, high bit first")
    func bitfield() {
        var download = Download(uris: ["http://h/f"])
        let mebibyte: Int64 = 1 << 20
        download.totalBytes = 9 * mebibyte + 5
        download.completed = ByteRanges([
            0..<(2 * mebibyte), (3 * mebibyte)..<(3 * mebibyte + 100),
            (8 * mebibyte)..<(9 * mebibyte + 5),
        ])
        let record = Aria2Status.record(of: download, activity: nil).object
        // Pieces 0, 1, 8 and 9 (the last, 5 bytes) of 10: 1100 0000, 1100 0000.
        #expect(record?["bitfield"] == "c0c0")
        #expect(record?["numPieces"] == "10")
        download.totalBytes = -1
        #expect(Aria2Status.record(of: download, activity: nil).object?["bitfield"] == nil)
    }

    @Test("a daemon's list is untrusted: a gid listed twice counts once; sizes past 8 PiB are unknown")
    func hostileDaemonList() throws {
        let record: JSONValue = [
            "gid": "00000000000000ab", "status": "active", "totalLength": "9000000000000000000",
            "completedLength": "9223372036854775807", "downloadSpeed": "-5",
        ]
        let other: JSONValue = [
            "gid": "00000000000000ac", "status": "waiting", "totalLength": "100",
            "completedLength": "900",
        ]
        let snapshot = RemoteSnapshot(records: Array(repeating: record, count: 4000) + [other, other])
        #expect(snapshot.downloads.map(\.id) == [Self.gid("\u{ab}"), Self.gid("\u{ac}")])
        #expect(snapshot.downloads[0].totalBytes == -1 && snapshot.downloads[0].bytesDone == 0)
        #expect(snapshot.downloads[1].bytesDone == 100)
        #expect(snapshot.speeds[Self.gid("\u{ab}")] == 0)
        let events = RemoteSnapshot().events(to: snapshot)
        #expect(events.first == .added(snapshot.downloads))
    }

    @Test("attached to haul's server: commands reach the queue, events come back, a lost daemon is said")
    func attachedToServer() async throws {
        let directory = try ScratchDirectory.make("remote-queue")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (queue, server) = try Self.serve(in: directory, secret: "k")
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/jsonrpc"))
        let seen = Mutex<[DownloadEvent]>([])
        let notices = Mutex<[String]>([])
        let remote = try await RemoteQueue.connect(
            RPCClient(url: url, secret: "k"), interval: .milliseconds(50),
            onEvent: { event in seen.withLock { $0.append(event) } },
            onNotice: { text, _ in notices.withLock { $0.append(text) } })
        defer { remote.close() }

        var entry = QueueEntry(uris: ["http://127.0.0.1:9/remote.bin"])
        try entry.options.set("pause", "true")
        remote.submit([entry])
        let gid = try #require(await Self.eventually { queue.ids.first })
        #expect(await Self.eventually { seen.withLock { $0.contains { Self.adds($0, gid) } ? true : nil } } == true)
        remote.move(gid, .top)
        remote.setMaxDownloadLimit(gid, 2048)
        #expect(
            await Self.eventually { queue.download(gid)?.options.maxDownloadLimit?.cap == 2048 ? true : nil } == true)
        remote.cancel(gid)
        #expect(await Self.eventually { queue.download(gid)?.state == .cancelled ? true : nil } == true)
        remote.remove([gid])
        #expect(await Self.eventually { queue.download(gid) == nil ? true : nil } == true)
        #expect(await Self.eventually { seen.withLock { $0.contains(.removed(id: gid)) ? true : nil } } == true)
        // A command the daemon refuses is said, not dropped.
        remote.pause(Self.gid("\u{ff}"))
        #expect(
            await Self.eventually { notices.withLock { $0.contains { $0.contains("could not pause") } ? true : nil } }
                == true)

        server.stop()
        #expect(
            await Self.eventually { notices.withLock { $0.contains { $0.contains("lost the daemon") } ? true : nil } }
                == true)
    }

    @Test("a daemon's notification brings its change at once, long before the next poll")
    func notificationsWakeThePoller() async throws {
        let directory = try ScratchDirectory.make("remote-notified")
        defer { try? FileManager.default.removeItem(at: directory) }
        let hub = NotificationHub()
        let (queue, server) = try Self.serve(in: directory, hub: hub)
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/jsonrpc"))
        let seen = Mutex<[DownloadEvent]>([])
        let remote = try await RemoteQueue.connect(
            RPCClient(url: url), interval: .seconds(60), onEvent: { event in seen.withLock { $0.append(event) } },
            onNotice: { _, _ in })
        defer { remote.close() }
        // The first poll, then the WebSocket.
        #expect(await Self.eventually { hub.count == 1 ? true : nil } == true)
        var entry = QueueEntry(uris: ["http://127.0.0.1:9/n.bin"])
        try entry.options.set("pause", "true")
        let gid = queue.add(entry)
        queue.cancel(gid)
        let stopped = await Self.eventually {
            seen.withLock { events in
                events.contains { event in
                    if case .added(let added) = event {
                        return added.contains { $0.id == gid && $0.state == .cancelled }
                    }
                    return false
                } ? true : nil
            }
        }
        #expect(stopped == true)
    }

    /// A queue saving to `directory`, served by haul's server on a free loopback port; its
    /// events go to `hub`'s WebSocket clients.
    static func serve(
        in directory: URL, secret: String? = nil, hub: NotificationHub = NotificationHub()
    ) throws -> (DownloadQueue, RPCServer) {
        var configuration = DownloadQueue.Configuration()
        configuration.directory = directory.path
        let queue = DownloadQueue(configuration: configuration) { event in
            if let notification = Aria2Notification(event) { hub.post(notification) }
        }
        let settings = Aria2Methods.Settings(allowedDirectory: AllowedDirectory(directory.path), version: "t")
        let endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: secret))
        var serverConfiguration = RPCServer.Configuration()
        serverConfiguration.port = 0
        return (queue, try RPCServer.start(serverConfiguration, endpoint: endpoint, hub: hub))
    }

    static func adds(_ event: DownloadEvent, _ gid: GID) -> Bool {
        if case .added(let downloads) = event { return downloads.contains { $0.id == gid } }
        return false
    }

    /// `value()` once it is non-nil, polled for up to 5 s.
    static func eventually<Value>(_ value: () -> Value?) async -> Value? {
        for _ in 0..<250 {
            if let found = value() { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return value()
    }
}

/// What a user types for `--connect`, as the URL the client calls.
@Suite("remote address")
struct RemoteAddressTests {
    @Test(
        "--connect URLs: aria2's ws:// forms, a missing path or port filled in, other schemes refused",
        arguments: [
            ("http://nas:6800/jsonrpc", "http://nas:6800/jsonrpc"),
            ("ws://nas:6800/jsonrpc", "http://nas:6800/jsonrpc"),
            ("wss://nas/jsonrpc", "https://nas:6800/jsonrpc"),
            ("nas", "http://nas:6800/jsonrpc"),
            ("https://nas:443", "https://nas:443/jsonrpc"),
            ("ftp://nas", nil), ("http://", nil), ("file:///tmp/rpc.sock", nil),
        ] as [(String, String?)])
    func addresses(typed: String, url: String?) {
        #expect(RemoteAddress.url(typed)?.absoluteString == url)
    }
}
