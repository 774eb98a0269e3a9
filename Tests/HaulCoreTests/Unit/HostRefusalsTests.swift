import Foundation
import HaulNet
import Testing

@testable import HaulCore

// MARK: - HostRefusalsTests

/// A host that refuses before answering backs off as a whole: the policy as a table, then the
/// core's inputs and effects.
@Suite("Host refusals")
struct HostRefusalsTests {
    @Test("the first refusal holds a host 1 s; only its probe counts again, doubling to 30 s; an answer lifts it")
    func policy() throws {
        var refusals = HostRefusals()
        let first = refusals.refused("h", by: "a", now: 0)
        #expect(try #require(first) == (1, 1))
        #expect(refusals.refused("h", by: "b", now: 0.1) == nil, "the rest of the first wave adds nothing")
        #expect(!refusals.mayStart("h", now: 0.5) && refusals.mayStart("h", now: 1) && refusals.mayStart("k", now: 0))
        refusals.started("h", by: "c")
        #expect(!refusals.mayStart("h", now: 1.5), "one probe at a time")
        let probe = refusals.refused("h", by: "c", now: 2)
        #expect(try #require(probe) == (2, 2))
        var streak = 2
        var now = 2.0
        for expected in [4.0, 8, 16, 30, 30] {
            now += 100
            refusals.holdOver("h")
            refusals.started("h", by: "c")
            streak += 1
            let longer = refusals.refused("h", by: "c", now: now)
            #expect(try #require(longer) == (expected, streak))
        }
        refusals.started("h", by: "d")
        refusals.ended("h", by: "d")
        #expect(refusals.holds["h"]?.probe == nil, "a probe paused or failed otherwise frees the next")
        #expect(refusals.answered("h") && refusals.isEmpty && refusals.mayStart("h", now: now))
    }

    @Test("a refused wave: the others' unanswered attempts stop uncounted; each probe refused counts for all")
    func core() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 3 }
        _ = core.add(["a", "b", "c", "d"], { $0.maxTries = 2 })
        #expect(
            core.fail(1, .cannotConnect, refused: true) == [
                "hold http://a.test for 1.0s", "cancel c2", "b queued", "cancel c3", "c queued", "retry a in 1.0s",
                "a queued: could not connect to the server",
            ])
        #expect(core.download("b")?.attempts == 0 && core.download("d")?.state == .queued)
        #expect(core.send(.timerFired(.retry("a"))) == [], "held: a waits for the host")
        #expect(core.send(.timerFired(.hostHoldOver("http://a.test"))) == ["a active", "start c4 a http://a.test/a"])
        #expect(
            core.fail(4, .cannotConnect, refused: true) == [
                "hold http://a.test for 2.0s",
                "b updated", "c updated", "d updated", "a failed: could not connect to the server",
            ])
        #expect(core.download("b")?.attempts == 1)
        _ = core.send(.timerFired(.hostHoldOver("http://a.test")))
        let last = core.fail(5, .cannotConnect, refused: true)
        #expect(last.contains("hold http://a.test for 4.0s"), "\(last)")
        #expect(["b", "c", "d"].allSatisfy { core.download(GID(stringLiteral: $0))?.state == .failed }, "\(last)")
        #expect(core.download("c")?.lastError?.hasPrefix("http://a.test refused 3 requests in a row") == true)
    }
}
