import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

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
        try await expectWhole(harness, id, "s.bin", size: 8_000_000)
        let ranges = try FaultServer.shared().fileRequests.requests(for: key).compactMap(\.range)
        #expect(ranges.count >= 3, "\(ranges)")
        #expect(
            ranges.allSatisfy { $0.hasPrefix("bytes=") && !$0.hasSuffix("-") },
            "helpers ask for closed ranges: \(ranges)")
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

    /// Waits for download `id`, then expects it complete and `name` to hold `size` pattern bytes.
    private func expectWhole(_ harness: QueueHarness, _ id: GID, _ name: String, size: Int) async throws {
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        let data = try harness.contents(name)
        #expect(data.count == size && TestPattern.matches(data))
    }

    // MARK: - No slow tail

    /// The closed ranges (`bytes=a-b`, as first and last byte) the server saw for `key`, in order.
    private func closedRanges(_ key: String) throws -> [(first: Int, last: Int)] {
        try FaultServer.shared().fileRequests.requests(for: key).compactMap { entry in
            guard let range = entry.range?.dropFirst("bytes=".count).split(separator: "-"), range.count == 2,
                let first = Int(range[0]), let last = Int(range[1])
            else { return nil }
            return (first, last)
        }
    }

    @Test("a connection that finishes steals half of the largest segment, then races the tail of the slowest")
    func stealAndRace() async throws {
        // No laggard is replaced here: this test is about stealing and racing alone.
        let harness = try QueueHarness(
            defaults: try splitting(2), patience: SegmentPlanner.Patience(grace: 600, stall: 600))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        // The first connection trickles (160 KB/s: 25 s for its half, however busy the machine);
        // the helper's answer comes at full speed.
        let id = try harness.add(FaultServer.shared().url("/file/8000000?key=\(key)&trickle=16384"), [("out", "t.bin")])
        try await expectWhole(harness, id, "t.bin", size: 8_000_000)
        let ranges = try closedRanges(key)
        // The first connection's segment ends where the first helper's begins.
        let firstEnd = try #require(ranges.first { $0.last == 7_999_999 }).first
        let steal = ranges.first { $0.last == firstEnd - 1 && $0.first > 0 }
        #expect(steal != nil, "half of the first connection's segment was stolen: \(ranges)")
        if let steal {
            #expect(
                ranges.contains { $0.last == steal.first - 1 && $0.first > 0 },
                "the rest of the first connection's segment was raced: \(ranges)")
        }
        #expect(harness.recorder.latest(id)?.attempts == 1)
    }

    @Test("in order (--stream-piece-selector=inorder), pieces are asked for front to back and the start stays whole")
    func inOrder() async throws {
        var options = try splitting(4)
        try options.set("stream-piece-selector", "inorder")
        // No laggard is replaced here: a replacement fetches the rest of an earlier piece.
        let harness = try QueueHarness(defaults: options, patience: SegmentPlanner.Patience(grace: 600, stall: 600))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let size: Int64 = 16_000_000
        let id = try harness.add(FaultServer.shared().url("/file/\(size)?key=\(key)&pace=131072"), [("out", "o.bin")])
        try await expectWhole(harness, id, "o.bin", size: Int(size))
        let starts = try closedRanges(key).map(\.first)
        #expect(starts.count >= 6, "\(starts)")
        // Each piece starts after the last, but for tail races in the last pieces in flight.
        let backwards = zip(starts, starts.dropFirst()).filter { $0 >= $1 }.map(\.1)
        #expect(backwards.allSatisfy { Int64($0) >= size - 4 * 1_048_576 }, "in order: \(starts)")
        // Spread over four connections, the file's quarters would fill at once: 12 MB beyond a
        // whole start near the end. In order, no more than the pieces in flight are.
        let window: Int64 = 4 * 1_048_576 + 524_288
        #expect(
            !harness.recorder.showed(id) { download, _ in
                download.completed.count - download.completed.prefixLength > window
            }, "more than four pieces were ever ahead of the whole start")
    }

    @Test("a connection far slower than the others is dropped and its range taken over where it stopped")
    func slowConnectionReplaced() async throws {
        let patience = SegmentPlanner.Patience(grace: 0.5, laggardFraction: 0.1, stall: 10, checkEvery: 0.1)
        let harness = try QueueHarness(defaults: try splitting(4), patience: patience)
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        // Every connection runs at 1.28 MB/s but the second, which crawls at 40 KB/s.
        let id = try harness.add(
            FaultServer.shared().url("/file/8000000?key=\(key)&pace=131072&crawl=4096"), [("out", "l.bin")])
        try await expectWhole(harness, id, "l.bin", size: 8_000_000)
        // A replacement asks for the rest of a segment, from just after where that segment began
        // (a steal would start near its middle).
        let ranges = try closedRanges(key)
        let replaced = ranges.enumerated().contains { index, later in
            ranges[..<index].contains {
                $0.last == later.last && later.first > $0.first && later.first < $0.first + 500_000
            }
        }
        #expect(replaced, "\(ranges)")
        #expect(harness.recorder.latest(id)?.attempts == 1)
    }

    @Test("a stalled first connection is dropped and a new one fetches its range; the download is not retried")
    func stalledConnectionReplaced() async throws {
        let patience = SegmentPlanner.Patience(grace: 0.5, laggardFraction: 0.1, stall: 0.5, checkEvery: 0.1)
        let harness = try QueueHarness(defaults: try splitting(2), patience: patience)
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        // The first request sends its head and then nothing.
        let id = try harness.add(FaultServer.shared().url("/file/6000000?key=\(key)&stall=0"), [("out", "st.bin")])
        try await expectWhole(harness, id, "st.bin", size: 6_000_000)
        // Steals and races start mid-segment; only a replacement starts at byte 0.
        let ranges = try closedRanges(key)
        #expect(ranges.contains { $0.first == 0 }, "\(ranges)")
        #expect(harness.recorder.latest(id)?.attempts == 1, "\(harness.recorder.latest(id)?.lastError ?? "")")
    }

    // MARK: - Mirrors

    @Test("two mirrors serve segments of one file in parallel")
    func mirrors() async throws {
        let harness = try QueueHarness(defaults: try splitting(2))
        defer { harness.cleanUp() }
        let keys = [UUID().uuidString, UUID().uuidString]
        let urls = try keys.map { try FaultServer.shared().url("/file/8000000?key=\($0)&pace=131072") }
        let id = try harness.add(urls[0], mirrors: [urls[1]], [("split", "4"), ("out", "m.bin")])
        try await expectWhole(harness, id, "m.bin", size: 8_000_000)
        for key in keys {
            let ranged = try FaultServer.shared().fileRequests.requests(for: key).filter { $0.range != nil }
            #expect(!ranged.isEmpty, "each mirror serves ranges")
        }
        #expect(harness.recorder.activity(id)?.droppedMirrors == [])
    }

    @Test(
        "a mirror that answers 404, or for a file of another length, is dropped with why; the file completes from the others",
        arguments: ["/status/404", "/file/6000100?key=other"])
    func badMirror(path: String) async throws {
        let harness = try QueueHarness(defaults: try splitting(2))
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let good = try FaultServer.shared().url("/file/6000000?key=\(key)&pace=131072")
        let bad = try FaultServer.shared().url(path)
        let id = try harness.add(good, mirrors: [bad], [("split", "4"), ("out", "b.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        let download = try #require(harness.recorder.latest(id))
        let dropped = harness.recorder.activity(id)?.droppedMirrors ?? []
        #expect(download.state == .complete, "\(download.lastError ?? "")")
        let data = try harness.contents("b.bin")
        #expect(data.count == 6_000_000 && TestPattern.matches(data))
        #expect(dropped.count == 1, "\(dropped)")
        let reason = dropped.first ?? ""
        #expect(reason.hasPrefix(bad.absoluteString), "\(reason)")
        #expect(
            path.hasPrefix("/status")
                ? reason.contains("answered 404") : reason.contains("length 6000100, not 6000000"), "\(reason)")
    }

    @Test("a per-download speed limit holds for the split as a whole")
    func speedLimit() async throws {
        let harness = try QueueHarness(defaults: try splitting(4))
        defer { harness.cleanUp() }
        let id = try harness.add(
            FaultServer.shared().url("/file/6000000?key=\(UUID())"),
            [("max-download-limit", "2M"), ("min-split-size", "1M"), ("out", "l.bin")])
        let start = Date()
        #expect(await harness.recorder.wait(for: [id]))
        let elapsed = Date().timeIntervalSince(start)
        #expect(harness.recorder.latest(id)?.state == .complete)
        // 6,000,000 bytes at 2 MiB/s take about 2.9 s; four connections each at the full cap
        // would take under one.
        #expect(elapsed > 2.0, "took \(elapsed) s")
        #expect(
            harness.recorder.showed(id) { _, activity in activity.segments.count > 1 },
            "the split's connections were shown while it ran")
    }
}
