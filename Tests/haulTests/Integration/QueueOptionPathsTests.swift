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

    @Test("each queue option changes over RPC as its row says, and getGlobalOption shows what is in force")
    func changesLive() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory, ["--bandwidth-schedule", "mon-fri  08:00-18:00 1M"])
        defer { daemon.stop() }
        func change(_ name: String, _ value: String) async throws -> (status: Int, body: String) {
            let reply = try await daemon.post(
                "{\"id\":1,\"method\":\"aria2.changeGlobalOption\",\"params\":[{\"\(name)\":\"\(value)\"}]}")
            return (reply.status, reply.body)
        }
        #expect(try await change("max-connections-per-host", "2").status == 200)
        #expect(try await change("max-overall-download-limit", "1M").status == 200)
        #expect(try await change("max-concurrent-downloads", "3").status == 200)
        let refused = try await change("bandwidth-schedule", "00:00-24:00 1K")
        #expect(
            refused.status == 400
                && refused.body.contains(
                    "bandwidth-schedule is not taken from a network RPC client; give it on the command line or in "
                        + "config.toml"),
            "\(refused)")
        let shown = try await daemon.post("{\"id\":1,\"method\":\"aria2.getGlobalOption\"}")
        for pair in [
            "\"max-connections-per-host\":\"2\"", "\"max-overall-download-limit\":\"1048576\"",
            "\"max-concurrent-downloads\":\"3\"", "\"bandwidth-schedule\":\"mon-fri 08:00-18:00 1M\"",
        ] {
            #expect(shown.body.contains(pair), "\(pair) in \(shown.body)")
        }
        let bad = try await change("max-connections-per-host", "-1")
        #expect(bad.status == 400 && bad.body.contains("max-connections-per-host"), "\(bad)")
    }
}
