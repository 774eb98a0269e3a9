import Foundation
import HaulTestSupport
import Testing

/// aria2's hooks on `haul get`, against the fault server: each runs with the gid, 1 and the
/// path, without a shell; a failing, missing or endless hook is reported and bounded, and the
/// downloads are not affected.
@Suite("haul get hooks")
struct GetCommandHookTests {
    /// A scratch directory with an executable `hook` that appends its arguments to `log`, writes
    /// `stderr` to stderr, and exits `status`.
    private static func withHook(status: Int = 0, stderr: String = "") throws -> URL {
        let directory = try HaulProcess.scratch()
        let hook = directory.appendingPathComponent("hook")
        try """
        #!/bin/sh
        echo "$@" >> '\(directory.path)/log'
        printf '%s' '\(stderr)' >&2
        exit \(status)

        """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)
        return directory
    }

    private static func log(_ directory: URL) -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    @Test("start and complete hooks run with aria2's arguments; the error hook runs for a 404")
    func startCompleteError() async throws {
        let directory = try Self.withHook()
        defer { HaulProcess.cleanUp(directory) }
        let server = try FaultServer.shared()
        let hook = directory.appendingPathComponent("hook").path
        let run = try await HaulProcess.run(
            [
                "get", server.url("/bytes/200000").absoluteString, "-d", "out",
                "--on-download-start", "\(hook) start", "--on-download-complete", "\(hook) complete",
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = directory.appendingPathComponent("out/200000").path
        let lines = Self.log(directory)
        #expect(lines.count == 2, "\(lines)")
        let words = lines.map { $0.split(separator: " ").map(String.init) }
        #expect(words.map(\.first) == ["start", "complete"], "\(lines)")
        for line in words {
            #expect(line.count == 4 && line[1].count == 16 && line[1].allSatisfy(\.isHexDigit), "\(line)")
            #expect(line.suffix(2) == ["1", saved], "\(line)")
        }

        let missing = try await HaulProcess.run(
            [
                "get", server.url("/status/404").absoluteString, "-d", "out", "--max-tries=1",
                "--on-download-error", "\(hook) error",
            ], in: directory)
        #expect(missing.status == 3, "\(missing.stderr)")
        #expect(Self.log(directory).last?.hasPrefix("error ") == true, "\(Self.log(directory))")
    }

    @Test("a hook that fails, cannot start or runs too long is reported, and the download still succeeds")
    func failingHooks() async throws {
        let directory = try Self.withHook(status: 3, stderr: "no room for the copy\u{1b}[2J")
        defer { HaulProcess.cleanUp(directory) }
        let server = try FaultServer.shared()
        let hook = directory.appendingPathComponent("hook").path
        let failed = try await HaulProcess.run(
            ["get", server.url("/bytes/1000").absoluteString, "-d", "a", "--on-download-complete", hook],
            in: directory)
        #expect(failed.status == 0, "\(failed.stderr)")
        #expect(failed.stderr.contains("exited with status 3: no room for the copy^[[2J"), "\(failed.stderr)")

        let absent = try await HaulProcess.run(
            ["get", server.url("/bytes/1000").absoluteString, "-d", "b", "--on-download-start", "/no/such/hook"],
            in: directory)
        #expect(absent.status == 0, "\(absent.stderr)")
        #expect(absent.stderr.contains("'/no/such/hook"), "\(absent.stderr)")
        #expect(absent.stderr.contains("could not start: No such file or directory"), "\(absent.stderr)")

        let started = Date()
        let endless = try await HaulProcess.run(
            [
                "get", server.url("/bytes/1000").absoluteString, "-d", "c", "--hook-time-limit", "1",
                "--on-download-complete", "sh -c 'sleep 30' hook",
            ], in: directory)
        #expect(endless.status == 0, "\(endless.stderr)")
        #expect(endless.stderr.contains("ran longer than 1 s and was stopped"), "\(endless.stderr)")
        #expect(Date().timeIntervalSince(started) < 15, "the run waited for the hook only as long as its limit")
    }

    @Test("a hook command with an open quote is refused before anything runs")
    func badCommand() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(
            ["get", "http://127.0.0.1:9/x", "--on-download-complete", "sh -c 'echo"], in: directory)
        #expect(run.status != 0)
        #expect(run.stderr.contains("ends inside a quote"), "\(run.stderr)")
    }
}
