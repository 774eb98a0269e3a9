import Foundation
import HaulTestSupport
import Testing

// MARK: - QueueOptionPathsTests

/// A queue option (`QueueOptionTable`) gets one answer whichever way it comes: the command line,
/// config.toml and an RPC client are all checked by its row.
@Suite("a queue option on every path")
struct QueueOptionPathsTests {
    static let refusal = "'5000' is not a whole number from 1 to 1000"

    @Test("-j 5000 is refused with the same words on the command line, in config.toml and over RPC")
    func sameAnswer() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let given = try await HaulProcess.run(["get", "-j", "5000", "http://127.0.0.1:9/x"], in: directory)
        #expect(given.status == 28 && given.stderr.contains(Self.refusal), "\(given.stderr)")

        let config = directory.appendingPathComponent("config/haul")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "max-concurrent-downloads = 5000\n".write(
            to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let configured = try await HaulProcess.run(
            ["get", "http://127.0.0.1:9/x"], in: directory,
            environment: ["XDG_CONFIG_HOME": directory.appendingPathComponent("config").path])
        #expect(
            configured.status == 28 && configured.stderr.contains("config.toml:1")
                && configured.stderr.contains(Self.refusal), "\(configured.stderr)")

        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let called = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.changeGlobalOption\",\"params\":[{\"max-concurrent-downloads\":\"5000\"}]}")
        #expect(called.status == 400 && called.body.contains(Self.refusal), "\(called)")
        let kept = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.changeGlobalOption\",\"params\":[{\"max-concurrent-downloads\":\"7\"}]}")
        #expect(kept.status == 200, "\(kept)")
    }
}
