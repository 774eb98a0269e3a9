import Foundation
import HaulTestSupport
import Testing

// MARK: - ConnectRetryTests

/// `haul --connect`'s `r` on a failed download, against `haul daemon` and against `aria2c`:
/// aria2 has no retry, so the same URIs are added again with the download's options, and the
/// failed result is taken off.
@Suite(
    "haul --connect retries", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct ConnectRetryTests {
    /// Adds `uri` (one attempt only) to the daemon on `port` with secret `sesame`.
    private static func add(_ uri: String, port: Int) async throws {
        let (status, body) = try await DaemonProcess.post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.addUri\",\"params\":[\"token:sesame\",[\"\(uri)\"],"
                + "{\"max-tries\":\"1\"}]}", port: port)
        #expect(status == 200, "\(body)")
    }

    /// Attaches to the daemon on `port`, waits for the failed row, presses `r`, and waits for it
    /// to be done; the server saw the file asked twice.
    private static func retry(port: Int, in directory: URL, server: FaultServer) async throws {
        let key = UUID().uuidString
        try await add(server.url("/file/5000?key=\(key)&fail=404&times=1").absoluteString, port: port)
        let session = try TmuxSession.haul(
            ["--connect", "http://127.0.0.1:\(port)/jsonrpc", "--rpc-secret", "sesame"], in: directory)
        let failed = await session.wait { $0.contains("✖ failed") }
        #expect(failed.held, "\(failed.text)")
        try session.send("r")
        let done = await session.wait { $0.contains("✔ done") && !$0.contains("✖ failed") }
        #expect(done.held, "\(done.text)")
        #expect(server.fileRequests.requests(for: key).count == 2)
    }

    @Test("r on a failed download adds it again and takes the failure off: on haul daemon and on aria2c")
    func retryOnBoth() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame"])
        defer { daemon.stop() }
        try await Self.retry(port: daemon.port, in: directory, server: server)

        let aria2 = try await Aria2cProcess(saving: directory.appendingPathComponent("aria2"))
        defer { aria2.stop() }
        let view = directory.appendingPathComponent("aria2c-view")
        try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
        try await Self.retry(port: aria2.port, in: view, server: server)
    }
}
