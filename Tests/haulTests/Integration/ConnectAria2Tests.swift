import Foundation
import HaulTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// haul's UI attached to a real `aria2c --enable-rpc` (Debian's aria2) on loopback: every key
/// goes to aria2c, which does the download.
@Suite(
    "haul --connect to aria2c", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct ConnectAria2Tests {
    @Test("the UI adds a URL, shows its progress, pauses, resumes and removes it; aria2c downloads it")
    func driveAria2c() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // 400 KiB/s overall: the file takes long enough to be seen active, paused and resumed.
        let aria2 = try await Aria2cProcess(
            saving: directory.appendingPathComponent("out"), ["--max-overall-download-limit=400K"])
        defer { aria2.stop() }
        let port = aria2.port
        // aria2's clients' ws:// form, said back as typed.
        let session = try TmuxSession.haul(
            ["--connect", "ws://127.0.0.1:\(port)/jsonrpc", "--rpc-secret", "sesame"], in: directory)
        let attached = await session.wait { $0.contains("attached to ws://127.0.0.1:\(port)/jsonrpc") }
        #expect(attached.held, "\(attached.text)")

        let key = UUID().uuidString
        let uri = server.url("/file/6000000?key=\(key)").absoluteString
        try session.send("a")
        try await Task.sleep(for: .milliseconds(200))
        try session.send(uri, "Enter")
        let active = await session.wait { $0.contains("▶ active") && $0.contains("6000000") }
        #expect(active.held, "\(active.text)")
        try session.send("p")
        let paused = await session.wait { $0.contains("‖ paused") }
        #expect(paused.held, "\(paused.text)")
        #expect(try await Self.status(port: port) == ["paused"])
        try session.send("p")
        let resumed = await session.wait { $0.contains("▶ active") }
        #expect(resumed.held, "\(resumed.text)")
        // Progress moves on the screen as aria2c reports it.
        let moving = await session.wait(seconds: 10) { text in
            text.split(separator: "\n").contains { $0.contains("6000000") && $0.contains("%") && !$0.contains(" 0%") }
        }
        #expect(moving.held, "\(moving.text)")
        // Quitting says the daemon goes on, not that the queue is saved here.
        try session.send("q")
        let asked = await session.wait { $0.contains("(y/n)") }
        #expect(asked.text.contains("The daemon goes on with it") && !asked.text.contains("saved"), "\(asked.text)")
        try session.send("n")
        try session.send("d")
        _ = await session.wait { $0.contains("(y/n)") }
        try session.send("y")
        let gone = await session.wait { !$0.contains("6000000") }
        #expect(gone.held, "\(gone.text)")
        #expect(try await Self.status(port: port) == [])
        #expect(server.fileRequests.requests(for: key).count >= 1)
    }

    /// The statuses of every download aria2c lists.
    static func status(port: Int) async throws -> [String] {
        var statuses: [String] = []
        for call in [
            "\"aria2.tellActive\",\"params\":[\"token:sesame\",[\"status\"]]",
            "\"aria2.tellWaiting\",\"params\":[\"token:sesame\",0,100,[\"status\"]]",
            "\"aria2.tellStopped\",\"params\":[\"token:sesame\",0,100,[\"status\"]]",
        ] {
            var request = URLRequest(url: URL(fileURLWithPath: "/"))
            request.url = URL(string: "http://127.0.0.1:\(port)/jsonrpc")
            request.httpMethod = "POST"
            request.httpBody = Data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\(call)}".utf8)
            let (_, body) = try await DaemonProcess.send(request)
            let reply = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            statuses += (reply?["result"] as? [[String: String]] ?? []).compactMap { $0["status"] }
        }
        return statuses
    }
}
