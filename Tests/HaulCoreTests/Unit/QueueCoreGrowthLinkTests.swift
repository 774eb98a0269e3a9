import Foundation
import HaulNet
import Testing

@testable import HaulCore

// MARK: - QueueCoreGrowthLinkTests

/// Automatic splitting on the pure core, played against links: every tick each running
/// connection writes what the link gives it by its age, and the core's steps are read back.
@Suite("Queue core: automatic splitting over links")
struct QueueCoreGrowthLinkTests {
    static let mebibyte: Int64 = 1 << 20

    /// A link: the most bytes a connection may have received by an age (seconds since its first
    /// byte) on its own, and the bytes a second all connections share (nil: no shared cap).
    struct Link: Sendable, CustomTestStringConvertible {
        let name: String
        var shared: Double?
        let bytes: @Sendable (_ age: Double) -> Int64
        var testDescription: String { name }
    }

    /// nginx's `limit_rate 2m`: 2 MiB at once, then 2 MiB a second from the connection's start.
    static let burstsPerSecond = Link(name: "nginx limit_rate 2m") { age in
        2 * mebibyte * (Int64(age.rounded(.down)) + 1)
    }
    /// 2 MiB/s a connection after a slow start that doubles every 50 ms from 64 KiB/s.
    static let cappedWithSlowStart = Link(name: "2 MiB/s a connection, slow start") { age in
        let rampEnd = 0.25
        let ramp = { (time: Double) in 65_536 * (pow(2, time / 0.05) - 1) / (log(2) / 0.05) }
        let ramped = ramp(min(age, rampEnd))
        return Int64(ramped + Double(2 * mebibyte) * max(age - rampEnd, 0))
    }
    /// 40 MiB/s shared by all connections: one fills it.
    static let shared = Link(name: "40 MiB/s shared", shared: Double(40 * mebibyte)) { _ in .max }

    /// What a run over `link` settled on: the connections, the reason, and how long after the
    /// first byte the last of them started.
    struct Played {
        var connections = 0
        var reason = ""
        var seconds = 0.0
        var core = CoreHarness()
    }

    /// Plays a 300 MiB download over `link`, starting `phase` seconds into a tick, answering
    /// each connection `answerTime` seconds after it starts; `speedLimit` is the download's.
    static func play(
        _ link: Link, phase: Double = 0, answerTime: Double = 0.05, speedLimit: Int64? = nil
    ) throws -> Played {
        let total = 300 * mebibyte
        var core = CoreHarness()
        _ = core.add(["d"], uri: { "http://a.test/\($0)" }) { options in
            options.maxDownloadLimit = speedLimit.map(SpeedLimit.init(bytesPerSecond:))
        }
        core.clock.advance(answerTime)
        _ = core.answer(1, 200, ["Content-Length": "\(total)", "ETag": "\"v\"", "Accept-Ranges": "bytes"])
        _ = core.name(1, "/dl/d")
        let begun = core.clock.uptime
        core.clock.advance(phase)
        var startedAt: [Int: Double] = [1: begun - answerTime]
        var firstByte: [Int: Double] = [1: begun]
        var received: [Int: Int64] = [:]
        var played = Played()
        while core.clock.uptime - begun < 20 {
            let now = core.clock.uptime
            // Each connection gets what its own cap allows by its age, within its share of the
            // link's and of the speed limit over the last tick.
            let share = [link.shared, speedLimit.map(Double.init)].compactMap { $0 }.min().map {
                $0 / Double(firstByte.count) * QueueCore.growthTick
            }
            for (number, first) in firstByte.sorted(by: { $0.key < $1.key }) {
                let before = received[number, default: 0]
                let allowed = link.bytes(now - first)
                let bytes = share.map { min(allowed, before + Int64($0)) } ?? allowed
                received[number] = bytes
                if bytes > before { _ = core.send(.wrote(core.connection(number), totalBytesWritten: bytes)) }
            }
            core.clock.advance(QueueCore.growthTick)
            let effects = core.send(.timerFired(.measureGrowth("d")))
            for line in effects where line.hasSuffix(" helper") && line.hasPrefix("start c") {
                let number = try #require(Int(line.split(separator: " ")[1].dropFirst()))
                startedAt[number] = core.clock.uptime
                played.seconds = core.clock.uptime - begun
            }
            // Helpers answer, and write from their first byte on.
            for (number, started) in startedAt
            where firstByte[number] == nil && core.clock.uptime - started >= answerTime {
                let range = try #require(core.started[number]?.request.byteRange)
                let last = try #require(range.upperBound)
                _ = core.answer(
                    number, 206, ["Content-Range": "bytes \(range.lowerBound)-\(last)/\(total)", "ETag": "\"v\""])
                firstByte[number] = core.clock.uptime
            }
            let growth = try #require(core.core.state.split("d")?.growth?.decision)
            if growth.isSettled {
                played.connections = growth.connections
                played.reason = growth.reason
                played.core = core
                break
            }
        }
        return played
    }

    @Test("nginx's limit_rate grows to 16 connections, the same count whatever the phase of the ticks")
    func burstsSettleTheSame() throws {
        for phase in stride(from: 0.0, to: QueueCore.growthTick, by: 0.02) {
            let played = try Self.play(Self.burstsPerSecond, phase: phase)
            #expect(played.connections == 16, "phase \(phase): \(played.reason)")
            #expect(played.seconds < 1, "phase \(phase): \(played.seconds) s")
        }
    }

    @Test("a capped link with slow start over 50 ms has 16 connections in about a second")
    func cappedGrows() throws {
        let played = try Self.play(Self.cappedWithSlowStart, answerTime: 0.15)
        #expect(played.connections == 16, "\(played.reason)")
        #expect(played.seconds <= 1.2, "\(played.seconds) s")
    }

    @Test("a link one connection fills stays on one or two, answers of 50 ms or 2 ms (loopback)")
    func sharedStays() throws {
        for answerTime in [0.05, 0.002] {
            let played = try Self.play(Self.shared, answerTime: answerTime)
            #expect(played.connections <= 2, "answers in \(answerTime) s: \(played.reason)")
        }
    }

    @Test("under a speed limit of 500K from a server of 200 KiB/s a connection, four connections reach it")
    func limitReached() throws {
        let link = Link(name: "200 KiB/s a connection") { age in Int64(204_800 * age) + 1 }
        let played = try Self.play(link, speedLimit: 512_000)
        #expect(played.connections == 4, "\(played.reason)")
        #expect(played.reason == "4 connections: they reach the speed limit (500.0 KiB/s)")
    }

    @Test("paused and resumed, a download starts again at the count it settled on, asking only for what it lacks")
    func resumedAtSettledCount() throws {
        var core = try Self.play(Self.burstsPerSecond).core
        let gaps = try #require(core.download("d")).completed.gaps(upTo: 300 * Self.mebibyte)
        let lacked = { (offset: Int64) in gaps.contains { $0.contains(offset) } }
        _ = core.send(.pause("d"))
        _ = core.send(.resume("d"))
        let first = try #require(core.started.keys.max())
        let range = try #require(core.started[first]?.request.byteRange)
        #expect(lacked(range.lowerBound), "the first connection asks for what is there")
        _ = core.answer(
            first, 206,
            [
                "Content-Range": "bytes \(range.lowerBound)-\(300 * Self.mebibyte - 1)/\(300 * Self.mebibyte)",
                "ETag": "\"v\"",
            ])
        let named = core.name(first, "/dl/d")
        let helpers = named.filter { $0.hasPrefix("start c") && $0.hasSuffix(" helper") }
        #expect(helpers.count == 15, "\(named)")
        #expect(named.contains("d shows 16 connections: as settled before"), "\(named)")
        for line in helpers {
            let number = try #require(Int(line.split(separator: " ")[1].dropFirst()))
            let lower = try #require(core.started[number]?.request.byteRange?.lowerBound)
            #expect(lacked(lower), "\(line) asks for what is there")
        }
    }
}
