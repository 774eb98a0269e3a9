import Foundation
import Synchronization
import Testing

@testable import HaulCore

/// How `HookRunner` runs hooks: a download's hooks in the order of its events, each to its end
/// before the next; what goes wrong reported.
@Suite("Hook runner")
struct HookRunnerTests {
    private static func event(_ state: Download.State, from: Download.State, id: GID) -> DownloadEvent {
        var download = Download(id: id, uris: ["https://example.org/\(id).iso"])
        download.state = state
        download.destination = "/data/\(id).iso"
        return .stateChanged(download, from: from)
    }

    /// Runs `events` through a runner whose hooks `set` sets (given the path of a log in a
    /// scratch directory), waits for every hook, and returns the log and the reports.
    private static func run(
        _ events: [DownloadEvent], hooks set: (inout DownloadHooks, String) throws -> Void
    ) throws -> (log: String, reports: [String]) {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log").path
        var hooks = DownloadHooks()
        try set(&hooks, log)
        let reports = Mutex<[String]>([])
        let runner = HookRunner(hooks: hooks) { line in reports.withLock { $0.append(line) } }
        for event in events { runner.handle(event) }
        runner.waitForRunning()
        return (try String(contentsOfFile: log, encoding: .utf8), reports.withLock { $0 })
    }

    @Test("a download's complete hook waits for its slow start hook; another download's hooks run meanwhile")
    func orderPerDownload() throws {
        let slow: GID = "00000000000000a1"
        let other: GID = "00000000000000b2"
        let events = [
            Self.event(.active, from: .queued, id: slow), Self.event(.complete, from: .active, id: slow),
            Self.event(.active, from: .queued, id: other), Self.event(.complete, from: .active, id: other),
        ]
        let (log, reports) = try Self.run(events) { hooks, log in
            try hooks.set(.start, "/bin/sh -c '[ $0 != \(slow) ] || sleep 0.4; echo start $0 >> \(log)'")
            try hooks.set(.complete, "/bin/sh -c 'echo complete $0 >> \(log)'")
        }

        let lines = log.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix(slow.description) } == ["start \(slow)", "complete \(slow)"])
        #expect(lines.filter { $0.hasSuffix(other.description) } == ["start \(other)", "complete \(other)"])
        #expect(lines.first == "start \(other)", "the other download's hooks waited for the slow one: \(lines)")
        #expect(reports.isEmpty)
    }

    @Test("a hook that fails is reported and the download's next hook still runs")
    func failureKeepsLane() throws {
        let id: GID = "00000000000000c3"
        let events = [Self.event(.active, from: .queued, id: id), Self.event(.failed, from: .active, id: id)]
        let (log, lines) = try Self.run(events) { hooks, log in
            try hooks.set(.start, "/bin/sh -c 'echo no room >&2; exit 4'")
            try hooks.set(.error, "/bin/sh -c 'echo error $0 >> \(log)'")
        }

        #expect(log == "error \(id)\n")
        #expect(lines.count == 1 && lines.first?.contains("--on-download-start") == true, "\(lines)")
        #expect(lines.first?.contains("exited with status 4: no room") == true, "\(lines)")
    }
}
