import Foundation
import HaulNet
import Testing

@testable import HaulCore

// MARK: - QueueCoreGrowthTests

/// Automatic splitting on the pure core, as input → effects: a server that refuses the added
/// connections never leaves a range that nothing fetches.
@Suite("Queue core: automatic splitting")
struct QueueCoreGrowthTests {
    static let total: Int64 = 48 << 20
    static let headers: HTTPHeaders = [
        "Content-Length": String(total), "ETag": "\"v\"", "Accept-Ranges": "bytes",
    ]

    /// A download of 48 MiB whose first connection writes `written` bytes at its first byte and
    /// nothing more: its rate is known two windows later, when the last window is no faster than
    /// the one before. Returns the effects of the tick that starts the first step.
    static func grown(written: Int64) -> (CoreHarness, [String]) {
        var core = CoreHarness()
        _ = core.add(["d"])
        _ = core.answer(1, 200, headers)
        _ = core.name(1, "/dl/d")
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: written))
        var step: [String] = []
        while !step.contains(where: { $0.hasSuffix(" helper") }) && core.clock.uptime < 1010 {
            core.clock.advance(QueueCore.growthTick)
            step = core.send(.timerFired(.measureGrowth("d")))
        }
        return (core, step)
    }

    @Test("helpers refused before their first byte give their ranges back: the first connection fetches on alone")
    func refusedGiveBack() throws {
        var (core, step) = Self.grown(written: 1 << 20)
        #expect(step.filter { $0.hasSuffix(" helper") }.count == 3, "\(step)")
        #expect(!step.contains { $0.hasPrefix("stop ") }, "no connection is stopped before a thief's first byte")
        var refused: [String] = []
        for number in 2...4 { refused += core.answer(number, 503) }
        #expect(!refused.contains { $0.hasPrefix("start ") || $0.hasPrefix("stop ") }, "\(refused)")
        #expect(core.core.state.split("d")?.segments[core.connection(1)]?.end == Self.total)
        #expect(core.core.state.split("d")?.growth?.decision.reason == "1 connection: the server refused more (503)")
        #expect(core.download("d")?.attempts == 1)
    }

    @Test("the connection holding the slot cut after its headers: the others go on, no attempt is spent")
    func holderCut() throws {
        var (core, step) = Self.grown(written: 1 << 20)
        for line in step where line.hasSuffix(" helper") {
            let number = try #require(Int(line.split(separator: " ")[1].dropFirst()))
            let range = try #require(core.started[number]?.request.byteRange)
            let last = try #require(range.upperBound)
            _ = core.answer(
                number, 206,
                ["Content-Range": "bytes \(range.lowerBound)-\(last)/\(Self.total)", "ETag": "\"v\""])
            _ = core.send(.wrote(core.connection(number), totalBytesWritten: 16384))
        }
        let end = try #require(core.core.state.split("d")?.segments[core.connection(1)]?.limit)
        #expect(end < Self.total, "the first connection was stopped at the first thief's start")
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: end))
        _ = core.send(.bodyDone(core.connection(1), path: "/dl/d.part"))
        _ = core.send(.finished(core.connection(1)))
        let holder = try #require(core.core.state.attempts["d"]?.holder.id)
        #expect(holder.number != 1, "the slot went to a helper")
        let cut = core.send(.failed(holder, ConnectionError(kind: .connectionLost, url: nil)))
        #expect(!cut.contains { $0.hasPrefix("d queued") || $0.hasPrefix("d failed") }, "\(cut)")
        #expect(core.download("d")?.attempts == 1 && core.download("d")?.state == .active)
        let next = try #require(core.core.state.attempts["d"]?.holder.id)
        #expect(next != holder && core.core.state.split("d")?.segments[next] != nil)
    }

    @Test("a resumed download with data past a gap asks only for what it lacks, gap by gap")
    func resumedAroundData() throws {
        var core = CoreHarness()
        let mebibyte: Int64 = 1 << 20
        _ = core.add(["d"], { _ in }) { download in
            download.totalBytes = Self.total
            download.validator = "\"v\""
            download.destination = "/dl/d"
            download.completed.insert(0..<(10 * mebibyte))
            download.completed.insert((20 * mebibyte)..<(30 * mebibyte))
        }
        #expect(core.started[1]?.request.byteRange?.lowerBound == 10 * mebibyte)
        _ = core.answer(
            1, 206, ["Content-Range": "bytes \(10 * mebibyte)-\(Self.total - 1)/\(Self.total)", "ETag": "\"v\""])
        let named = core.name(1, "/dl/d")
        #expect(named.contains("write c1 /dl/d.part from \(10 * mebibyte) to \(20 * mebibyte)"), "\(named)")
        // Its end reached, the first connection's next work is the gap after the data, not the data.
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 10 * mebibyte))
        _ = core.send(.bodyDone(core.connection(1), path: "/dl/d.part"))
        let next = core.send(.finished(core.connection(1)))
        #expect(next.contains { $0.contains("bytes=\(30 * mebibyte)-\(Self.total - 1)") }, "\(next)")
    }

    @Test("a server that refused more gets no more from the next download: its split starts at the count it took")
    func nextDownloadStartsAtTakenCount() throws {
        var (core, step) = Self.grown(written: 1 << 20)
        let helpers = try step.filter { $0.hasSuffix(" helper") }.map { line in
            try #require(Int(line.split(separator: " ")[1].dropFirst()))
        }
        #expect(helpers.count == 3)
        for number in helpers.dropFirst() { _ = core.answer(number, 503) }
        #expect(core.core.state.split("d")?.growth?.decision.connections == 2)
        _ = core.add(["e"])
        let first = try #require(core.started.keys.max())
        _ = core.answer(first, 200, Self.headers)
        let named = core.name(first, "/dl/e")
        #expect(named.filter { $0.hasPrefix("start c") && $0.hasSuffix(" helper") }.count == 1, "\(named)")
        #expect(named.contains("e shows 2 connections: the server refused more before"), "\(named)")
    }
}
