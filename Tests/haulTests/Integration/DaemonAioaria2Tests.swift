import Foundation
import HaulTestSupport
import Testing

// MARK: - DaemonAioaria2Tests

/// aioaria2 (PyPI, in `.build/venv`), a second client independent of aria2p, over the daemon's
/// WebSocket: adds with aria2's options, notifications, a multicall with its secret in each
/// call, and a wrong secret refused as aria2 refuses it.
@Suite("haul daemon with aioaria2", .serialized, .enabled(if: Aria2pTools.python != nil || Aria2pTools.required))
struct DaemonAioaria2Tests {
    @Test("aioaria2 adds, hears the completion and the error, multicalls with its secret, and is refused a wrong one")
    func drive() async throws {
        let python = try #require(Aria2pTools.python, "make test makes .build/venv with aioaria2")
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame"])
        defer { daemon.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/aioaria2_drive.py").path
        let output = try await DaemonAria2pTests.run(
            python,
            [
                script, String(daemon.port), "sesame", server.url("/bytes/5000").absoluteString,
                server.url("/status/404").absoluteString,
            ])
        let seen = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
        let added = try #require(seen["added"] as? String, "\(output)")
        #expect((seen["completed"] as? [String]) == [added], "\(output)")
        #expect(seen["version"] as? Bool == true, "\(output)")
        let status = seen["status"] as? [String: String]
        #expect(status == ["status": "complete", "totalLength": "5000", "completedLength": "5000"], "\(output)")
        #expect(seen["split"] as? String == "2", "\(output)")
        #expect(seen["error_gid_matches"] as? Bool == true, "\(output)")
        #expect((seen["wrong_secret"] as? String)?.contains("Unauthorized") == true, "\(output)")
        let saved = directory.appendingPathComponent("out/5000")
        #expect(try Data(contentsOf: saved).count == 5000)
    }
}
