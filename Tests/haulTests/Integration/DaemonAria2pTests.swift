import Foundation
import HaulTestSupport
import Testing

/// `haul daemon` driven by a real aria2 client: aria2p from PyPI (its CLI and its Python API),
/// installed by `make test` in `.build/venv`, against the fault server's files.
@Suite("haul daemon with aria2p", .serialized, .enabled(if: Aria2pTools.python != nil || Aria2pTools.required))
struct DaemonAria2pTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/aria2p_drive.py").path

    @Test("aria2p adds, lists, pauses, resumes and removes; files are whole; notifications come in order")
    func aria2pDrivesTheDaemon() async throws {
        let python = try #require(Aria2pTools.python, "make test creates .build/venv with aria2p")
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let key = UUID().uuidString
        let slow = server.url("/file/9000000?key=\(key)&trickle=32768").absoluteString
        let quick = server.url("/bytes/300000").absoluteString
        let missing = server.url("/status/404").absoluteString
        let run = try await Self.run(python, [Self.script, String(daemon.port), slow, quick, missing])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.utf8)) as? [String: Any], "\(run)\n\(daemon.stderr)")
        let steps = try #require(report["steps"] as? [String: Any])
        let gids = try #require(steps["gids"] as? [String: String])
        let slowGID = try #require(gids["slow"])

        #expect((steps["add"] as? [String: Any])?["status"] as? Int == 0)
        #expect(steps["slow_active"] as? String == "active")
        let listing = (steps["ls"] as? [String: Any])?["out"] as? String ?? ""
        #expect(listing.contains(slowGID) && listing.contains("active") && listing.contains("9000000"), "\(listing)")
        #expect(steps["slow_paused"] as? String == "paused")
        #expect(steps["slow_final"] as? String == "complete", "\(daemon.stderr)")
        #expect(steps["quick_final"] as? String == "complete")
        #expect(steps["missing_final"] as? String == "error")
        #expect((steps["missing_error"] as? [Any])?.first as? String == "3")
        #expect(steps["paused_status"] as? String == "paused")
        let listed = (steps["downloads"] as? [[String]])?.map { $0[0] } ?? []
        #expect(Set(listed) == Set([slowGID, gids["quick"] ?? "", gids["missing"] ?? ""]))

        // The files, byte for byte; the slow one continued after the pause with a Range.
        let out = directory.appendingPathComponent("out")
        let slowFile = try Data(contentsOf: out.appendingPathComponent("9000000"))
        #expect(slowFile.count == 9_000_000 && TestPattern.matches(slowFile))
        let quickFile = try Data(contentsOf: out.appendingPathComponent("quick.bin"))
        #expect(quickFile.count == 300_000 && TestPattern.matches(quickFile))
        // Larger than the 8 MiB of a file with no name, so it kept a partial file to resume.
        let requests = server.fileRequests.requests(for: key)
        #expect(requests.count >= 2 && requests.dropFirst().allSatisfy { $0.range != nil }, "\(requests)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("never.bin").path))

        let heard = (report["notifications"] as? [[String]]) ?? []
        func kinds(_ gid: String?) -> [String] { heard.filter { $0[1] == gid }.map { $0[0] } }
        #expect(kinds(slowGID) == ["start", "pause", "start", "complete"], "\(heard)")
        #expect(kinds(gids["missing"]) == ["start", "error"])
        #expect(kinds(gids["paused"]) == ["stop"])
        // The log names every change, with no colour.
        #expect(daemon.stderr.contains("[\(slowGID)] paused"))
        #expect(!daemon.stderr.contains("\u{1B}"))
    }

    /// Runs `python` with `arguments`; returns its stdout, or throws with its stderr.
    static func run(_ python: String, _ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
            environment[name] = nil
        }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus == 0 ? text : text + problems)
            }
        }
    }
}
