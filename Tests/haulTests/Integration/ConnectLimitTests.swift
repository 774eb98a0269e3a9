import Foundation
import HaulTestSupport
import Testing

// MARK: - ConnectLimitTests

/// The header of `haul --connect` says the daemon's overall limit, the one it was started with
/// and the one another client sets later: against `haul daemon` and `aria2c --enable-rpc`.
@Suite(
    "haul --connect shows the daemon's limit", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct ConnectLimitTests {
    /// Sets the overall limit of the daemon on `port` (secret `sesame`) as another client would.
    private static func setLimit(_ limit: String, port: Int) async throws {
        let (status, body) = try await DaemonProcess.post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.changeGlobalOption\",\"params\":[\"token:sesame\","
                + "{\"max-overall-download-limit\":\"\(limit)\"}]}", port: port)
        #expect(status == 200, "\(body)")
    }

    @Test("the header shows the limit the daemon started with, then the one another client set: haul, aria2c")
    func limitOnBoth() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(
            in: directory, ["--rpc-secret", "sesame", "--max-overall-download-limit", "400K"])
        defer { daemon.stop() }
        let aria2 = try await Aria2cProcess(
            saving: directory.appendingPathComponent("aria2"), ["--max-overall-download-limit=400K"])
        defer { aria2.stop() }
        for (name, port) in [("haul daemon", daemon.port), ("aria2c", aria2.port)] {
            let view = directory.appendingPathComponent("view-\(port)")
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
            let session = try TmuxSession.haul(
                ["--connect", "http://127.0.0.1:\(port)/jsonrpc", "--rpc-secret", "sesame"], in: view)
            let started = await session.wait { $0.contains("limit 400.0 KiB/s") }
            #expect(started.held, "\(name): \(started.text)")
            try await Self.setLimit("1M", port: port)
            let changed = await session.wait { $0.contains("limit 1.0 MiB/s") }
            #expect(changed.held, "\(name): \(changed.text)")
            try await Self.setLimit("0", port: port)
            let lifted = await session.wait { $0.contains("no limit") }
            #expect(lifted.held, "\(name): \(lifted.text)")
            try session.send("q")
        }
    }
}
