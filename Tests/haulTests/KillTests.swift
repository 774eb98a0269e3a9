import Foundation
import HaulTestSupport
import Testing

/// Resume that never corrupts a file: haul killed with SIGKILL at random moments, then started
/// again with the same command, ends with every file whole.
@Suite("kill -9 and restart")
struct KillTests {
    @Test(
        "killed at random moments during concurrent downloads, every file ends whole",
        arguments: [false, true])
    func killAndRestart(split: Bool) async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // 32 KiB every 100 ms a request: the kills cannot finish even the smallest file. Split,
        // each file takes 16 connections at 8 KiB every 100 ms, so the files are larger and the
        // kills fewer.
        let sizes = split ? [20_000_000, 24_000_000] : [4_000_000, 5_000_000, 6_000_000, 7_000_000]
        let kills = split ? 10 : 20
        let pace = split ? 8192 : 32768
        let keys = sizes.map { _ in UUID().uuidString }
        let list = zip(sizes, keys).map { size, key in
            server.url("/file/\(size)?key=\(key)&pace=\(pace)").absoluteString + "\n  out=f\(size).bin"
        }.joined(separator: "\n")
        try Data(list.utf8).write(to: directory.appendingPathComponent("list.txt"))
        // Checkpoints every 0.2 s (1 s by default), so even the shortest runs leave progress.
        let arguments =
            ["get", "-i", "list.txt", "-d", "out", "-j", "4", "-q", "--checkpoint-interval", "0.2"]
            + (split ? ["-x", "16", "-s", "16", "-k", "1M"] : [])

        var generator = SystemRandomNumberGenerator()
        var delays: [Int] = []
        for _ in 0..<kills {
            let requestsBefore = keys.reduce(0) { $0 + server.fileRequests.requests(for: $1).count }
            let (process, errors) = try HaulProcess.start(arguments, in: directory)
            let delay = Int.random(in: 100...1300, using: &generator)
            delays.append(delay)
            // The delay counts from haul's first request, not from its start: a loaded machine
            // can take longer to start haul than the longest delay.
            let deadline = Date().addingTimeInterval(10)
            while keys.reduce(0, { $0 + server.fileRequests.requests(for: $1).count }) == requestsBefore,
                Date() < deadline
            {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(delay))
            kill(process.processIdentifier, SIGKILL)
            _ = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "ended on its own before the kill after \(delay) ms")
        }
        for key in keys { server.fileRequests.liftPace(for: key) }
        let run = try await HaulProcess.run(arguments, in: directory)
        #expect(run.status == 0, "\(run.stderr)\nkilled after (ms): \(delays)")

        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
            .sorted()
        #expect(saved == sizes.map { "f\($0).bin" }, "killed after (ms): \(delays)")
        for size in sizes {
            let data = try Data(contentsOf: directory.appendingPathComponent("out/f\(size).bin"))
            #expect(data.count == size && TestPattern.matches(data), "f\(size).bin; killed after (ms): \(delays)")
        }
        // The runs continued from their checkpoints rather than starting over each time.
        let resumed = keys.flatMap { server.fileRequests.requests(for: $0) }.filter { $0.range != nil }
        #expect(resumed.count >= (split ? 30 : 4), "killed after (ms): \(delays)")
        // A resumed first connection (an open-ended range) carries If-Range; a split's helpers
        // (closed ranges) check the validator of the answer instead. Which of them a kill
        // interrupts depends on the machine's load, so every open-ended one is checked.
        let reopened = resumed.filter { $0.range?.hasSuffix("-") == true }
        #expect(reopened.allSatisfy { $0.ifRange == "\"v1\"" }, "\(reopened)")
        if !split { #expect(!reopened.isEmpty) }
    }
}
