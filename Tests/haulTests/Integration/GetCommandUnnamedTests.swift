import Foundation
import HaulTestSupport
import Testing

/// Files with no name: a body past `--resumable-above` becomes a resumable `NAME.part` as it
/// grows, and continues after a kill.
@Suite("haul get: files with no name")
struct GetCommandUnnamedTests {
    @Test("a chunked body that grows past --resumable-above becomes NAME.part, and resumes after a kill -9")
    func growsPastTheLimit() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        // 3 MB sent chunked (no length) at 320 KB/s: past 1 MiB after about 3.5 s, and 6 s more
        // to go, so a test woken late on a loaded machine still catches it half way.
        let url = server.url("/file/3000000?key=\(key)&pace=32768&chunked=1").absoluteString
        let arguments = ["get", "-q", "--resumable-above=1M", "--checkpoint-interval", "0.2", url, "-o", "c.bin"]
        let (process, errors) = try HaulProcess.start(arguments, in: directory)
        let part = directory.appendingPathComponent("c.bin.part")
        let deadline = Date().addingTimeInterval(30)
        var sizeAtKill = 0
        while Date() < deadline {
            sizeAtKill = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int) ?? 0
            if sizeAtKill > 1_300_000 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Below the limit nothing had a name; past it, NAME.part holds what came.
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(
            sizeAtKill > 1_048_576,
            "c.bin.part never grew past the limit: \(listing), \(server.fileRequests.requests(for: key).map(\.range))")
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGKILL)
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        server.fileRequests.liftPace(for: key)
        let run = try await HaulProcess.run(arguments, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("c.bin"))
        #expect(data.count == 3_000_000 && TestPattern.matches(data))
        // The second request continued from what the partial file held at the kill: past the
        // limit (the file had a name by then), short of the end.
        let ranges = server.fileRequests.requests(for: key).map(\.range)
        let resumedFrom = ranges.last.flatMap { $0 }.flatMap { Int($0.dropFirst(6).prefix { $0 != "-" }) }
        #expect(ranges.count == 2 && ranges[0] == nil, "\(ranges)")
        #expect(resumedFrom.map { $0 >= 1_048_576 && $0 < 3_000_000 } == true, "\(ranges)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("c.bin") }
                == ["c.bin"])
    }
}
