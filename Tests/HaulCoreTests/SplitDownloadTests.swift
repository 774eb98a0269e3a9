import Foundation
@testable import HaulCore
import HaulTestSupport
import Testing

/// One file over several connections, against the fault server.
@Suite("Split downloads")
struct SplitDownloadTests {
    private func splitting(_ connections: Int) throws -> DownloadOptions {
        var options = DownloadOptions()
        try options.set("split", String(connections))
        try options.set("max-connection-per-server", String(connections))
        try options.set("min-split-size", "1M")
        return options
    }

    @Test("a file is fetched over several ranged connections into one partial file, and ends whole")
    func split() async throws {
        let harness = try QueueHarness(defaults: try splitting(4))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let id = try harness.add(FaultServer.shared().url("/file/8000000?key=\(key)&pace=131072"), [("out", "s.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        let data = try harness.contents("s.bin")
        #expect(data.count == 8_000_000 && TestPattern.matches(data))
        let ranges = try FaultServer.shared().fileRequests.requests(for: key).compactMap(\.range)
        #expect(ranges.count >= 3, "\(ranges)")
        #expect(ranges.allSatisfy { $0.hasPrefix("bytes=") && !$0.hasSuffix("-") }, "helpers ask for closed ranges: \(ranges)")
        #expect(try harness.files() == ["s.bin"])
    }

    @Test("a server whose validator differs between connections makes haul start over on one connection")
    func validatorMismatch() async throws {
        let harness = try QueueHarness(defaults: try splitting(4))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let id = try harness.add(FaultServer.shared().url("/file/6000000?key=\(key)&etag=changing"), [("out", "v.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let data = try harness.contents("v.bin")
        #expect(data.count == 6_000_000 && TestPattern.matches(data))
        let whole = try FaultServer.shared().fileRequests.requests(for: key).filter { $0.range == nil }
        #expect(whole.count >= 2, "the split's first request, then a whole-file restart")
        #expect(harness.recorder.latest(id)?.attempts == 2)
    }

    @Test("a server that ignores ranges is fetched on one connection")
    func noRanges() async throws {
        let harness = try QueueHarness(defaults: try splitting(4))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let id = try harness.add(FaultServer.shared().url("/file/5000000?key=\(key)&ranges=ignore"), [("out", "n.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let data = try harness.contents("n.bin")
        #expect(data.count == 5_000_000 && TestPattern.matches(data))
    }
}
