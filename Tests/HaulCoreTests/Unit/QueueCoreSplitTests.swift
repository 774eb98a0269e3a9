import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Split planning, stealing, racing and laggard replacement as input → effects tables on the
/// pure core, on a clock moved by hand.
@Suite("Queue core: split")
struct QueueCoreSplitTests {
    static let mebibyte: Int64 = 1 << 20

    /// A queue that splits in 4 (1 MiB at least), with an 8 MiB file whose first connection's
    /// answer has been named: c1 fetches the first quarter, helpers c2 to c4 the others.
    static func splitting(uris extra: [String] = []) -> (CoreHarness, [String]) {
        var core = CoreHarness {
            $0.defaults.split = 4
            $0.defaults.maxConnectionPerServer = 4
            $0.defaults.minSplitSize = mebibyte
        }
        _ = core.add(["s"], { _ in }, { $0.uris.append(contentsOf: extra) })
        let headers: HTTPHeaders = ["Content-Length": "\(8 * mebibyte)", "Accept-Ranges": "bytes", "ETag": "\"e\""]
        _ = core.answer(1, 200, headers)
        let effects = core.name(1, "/dl/s")
        return (core, effects)
    }

    @Test("the first answer plans the split: helpers fetch closed ranges, the first connection stops at its end")
    func plan() {
        let (core, effects) = Self.splitting()
        #expect(
            effects == [
                "s updated",
                "start c2 s http://a.test/s bytes=2097152-4194303 helper",
                "start c3 s http://a.test/s bytes=4194304-6291455 helper",
                "start c4 s http://a.test/s bytes=6291456-8388607 helper",
                "check laggards s in 1.0s",
                "write c1 /dl/s.part from 0 to 2097152",
            ])
        #expect(core.started[2]?.request.ownsConnection == true, "each segment has its own TCP connection")
    }

    @Test("a helper whose answer agrees writes its segment; one of another version stops the split for good")
    func helperAnswers() {
        var (core, _) = Self.splitting()
        let agreeing = QueueCoreResumeTests.ranged(2_097_152, 8_388_608, etag: "\"e\"")
        #expect(core.answer(2, 206, agreeing) == ["write c2 /dl/s.part from 2097152 to 4194304"])
        let other = QueueCoreResumeTests.ranged(4_194_304, 8_388_608, etag: "\"changed\"")
        #expect(
            core.answer(3, 206, other) == [
                "answer c3 cancel", "cancel c2", "cancel c3", "cancel c4", "cancel c1",
                "s queued: a second connection got a different answer", "s active", "start c5 s http://a.test/s",
            ])
        _ = core.answer(5, 200, ["Content-Length": "\(8 * Self.mebibyte)", "Accept-Ranges": "bytes", "ETag": "\"e\""])
        #expect(core.name(5, "/dl/s") == ["s updated", "write c5 /dl/s.part from 0"], "one connection from now on")
    }

    @Test(
        "a helper's range without the file's length (FTP's) is taken on the first server's validator, never without one"
    )
    func helperWithoutLength() {
        var (core, _) = Self.splitting()
        let unknownLength: HTTPHeaders = ["Content-Range": "bytes 2097152-4194303/*", "ETag": "\"e\""]
        #expect(core.answer(2, 206, unknownLength) == ["write c2 /dl/s.part from 2097152 to 4194304"])
        let noValidator: HTTPHeaders = ["Content-Range": "bytes 4194304-6291455/*"]
        #expect(core.answer(3, 206, noValidator).prefix(2) == ["answer c3 cancel", "cancel c2"])
    }

    @Test("a helper that fails leaves a gap; the next connection to finish takes it over, and the slot")
    func gap() {
        var (core, _) = Self.splitting()
        #expect(core.fail(2, .connectionLost) == [])
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 2 * Self.mebibyte))
        #expect(
            core.send(.finished(core.connection(1))) == ["start c5 s http://a.test/s bytes=2097152-4194303 helper"])
        #expect(core.core.state.attempts["s"]?.holder.id.number == 3, "a running helper holds the slot")
    }

    @Test(
        "with no gap, a finished connection steals half of the largest segment left; the victim stops early, once the thief's first byte came"
    )
    func steal() {
        var (core, _) = Self.splitting()
        _ = core.send(.wrote(core.connection(4), totalBytesWritten: 2 * Self.mebibyte))
        #expect(core.send(.finished(core.connection(4))) == ["start c5 s http://a.test/s bytes=1048576-2097151 helper"])
        _ = core.answer(5, 206, ["Content-Range": "bytes 1048576-2097151/8388608", "ETag": "\"e\""])
        #expect(core.send(.wrote(core.connection(5), totalBytesWritten: 16384)).contains("stop c1 at 1048576"))
    }

    @Test("a thief refused before its first byte gives its range back: the victim, never stopped, fetches on")
    func refusedThief() {
        var (core, _) = Self.splitting()
        _ = core.send(.wrote(core.connection(4), totalBytesWritten: 2 * Self.mebibyte))
        _ = core.send(.finished(core.connection(4)))
        let refused = core.fail(5, .connectionLost)
        #expect(!refused.contains { $0.hasPrefix("start ") || $0.hasPrefix("stop ") }, "\(refused)")
        #expect(core.core.state.split("s")?.segments[core.connection(1)]?.end == 2 * Self.mebibyte)
    }

    @Test("near the end, a free connection races the tail of the slowest; whichever gets there first wins")
    func tailRace() {
        var (core, _) = Self.splitting()
        // c2 to c4 are done; c1 has 1.5 MiB left, too little to steal half of (1 MiB each).
        for number in 2...4 {
            _ = core.send(.wrote(core.connection(number), totalBytesWritten: 2 * Self.mebibyte))
        }
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: Self.mebibyte / 2))
        #expect(
            core.send(.finished(core.connection(2))) == ["start c5 s http://a.test/s bytes=1310720-2097151 helper"],
            "the racer fetches the second half of what c1 has left")
        #expect(core.send(.finished(core.connection(3))) == [], "a raced segment is not raced twice")
        // The racer gets to the end first: c1 now ends where the racer began, and the freed
        // connection races the tail of what c1 still has.
        _ = core.send(.wrote(core.connection(5), totalBytesWritten: 786_432))
        #expect(
            core.send(.finished(core.connection(5))) == [
                "stop c1 at 1310720", "start c6 s http://a.test/s bytes=917504-1310719 helper",
            ])
        // This time the victim wins: the racer is stopped.
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 1_310_720))
        #expect(core.send(.finished(core.connection(1))).first == "cancel c6")
    }

    @Test("a connection that writes nothing while the others run is replaced after the grace period")
    func laggard() {
        var (core, _) = Self.splitting()
        for tick in 1...8 {
            core.clock.advance(0.5)
            for number in 1...3 {
                _ = core.send(.wrote(core.connection(number), totalBytesWritten: Int64(tick) * 100_000))
            }
        }
        #expect(
            core.send(.timerFired(.checkLaggards("s"))) == [
                "cancel c4", "start c5 s http://a.test/s bytes=6291456-8388607 helper", "check laggards s in 1.0s",
            ])
    }

    @Test("a mirror that answers for another file is dropped, said once, and its range fetched from the others")
    func droppedMirror() {
        var (core, _) = Self.splitting(uris: ["http://b.test/s"])
        let mirrors = core.started.values.filter { $0.request.url.host == "b.test" }.map(\.id.number).sorted()
        #expect(mirrors.count == 2)
        let dropped = "s shows mirror dropped: http://b.test/s: it answered for another file (length 5, not 8388608)"
        let first = core.answer(mirrors[0], 200, ["Content-Length": "5"])
        #expect(first.first == "answer c\(mirrors[0]) cancel" && first.contains(dropped))
        #expect(!core.answer(mirrors[1], 404).contains { $0.contains("mirror dropped") }, "said once")
        #expect(
            core.core.state.runs["s"]?.activity.droppedMirrors == [
                "http://b.test/s: it answered for another file (length 5, not 8388608)"
            ])
    }

    @Test("a speed limit is shared by the split's connections, and lifted from all of them")
    func sharedLimit() {
        var (core, _) = Self.splitting()
        #expect(
            core.send(.setMaxDownloadLimit("s", 4000)) == [
                "s updated", "limit c1 1000", "limit c2 1000", "limit c3 1000", "limit c4 1000",
            ])
        #expect(
            core.send(.setMaxDownloadLimit("s", nil)) == [
                "s updated", "limit c1 none", "limit c2 none", "limit c3 none", "limit c4 none",
            ])
    }

    @Test("a download that receives nothing for a second shows a speed of 0")
    func idleSpeed() {
        var core = CoreHarness()
        _ = core.add(["d"])
        #expect(
            core.send(.wrote(core.connection(1), totalBytesWritten: 10)) == [
                "settle speeds in 1.0s", "d 10 of -1",
            ])
        core.clock.advance(0.5)
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 1000))
        #expect((core.core.state.runs["d"]?.activity.speed ?? 0) > 0)
        core.clock.advance(1.5)
        #expect(core.send(.timerFired(.settleSpeeds)) == ["d 1000 of -1", "settle speeds in 1.0s"])
        #expect(core.core.state.runs["d"]?.activity.speed == 0)
    }
}
