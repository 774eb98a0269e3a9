import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Retry timing as input → effects tables on the pure core, on a clock moved by hand.
@Suite("Queue core: retry")
struct QueueCoreRetryTests {
    @Test("a lost connection waits 1, 2, 4 seconds between attempts, then fails after the fifth")
    func backoff() {
        var core = CoreHarness()
        _ = core.add(["d"])
        for (attempt, wait) in [(1, "1.0"), (2, "2.0"), (3, "4.0"), (4, "8.0")] {
            #expect(
                core.fail(attempt, .connectionLost) == [
                    "retry d in \(wait)s", "d queued: the connection was lost before the whole body arrived",
                ])
            #expect(core.download("d")?.nextAttemptAt == core.clock.now.addingTimeInterval(Double(wait) ?? 0))
            #expect(core.send(.timerFired(.retry("d"))) == ["d active", "start c\(attempt + 1) d http://a.test/d"])
        }
        #expect(core.fail(5, .connectionLost) == ["d failed: the connection was lost before the whole body arrived"])
        #expect(core.download("d")?.attempts == 5 && core.download("d")?.nextAttemptAt == nil)
    }

    @Test(
        "which answers are tried again",
        arguments: [
            (404, [:], ["d failed: the server answered 404 Not Found"]),
            (503, [:], ["retry d in 1.0s", "d queued: the server answered 503 Service Unavailable"]),
            (
                503, ["Retry-After": "30"],
                ["retry d in 30.0s", "d queued: the server answered 503 Service Unavailable"]
            ),
            (429, ["Retry-After": "7"], ["retry d in 7.0s", "d queued: the server answered 429 Too Many Requests"]),
            (
                401, [:],
                [
                    "d failed: the server answered 401 Unauthorized: give a user name and password "
                        + "(--http-user and --http-passwd, or a netrc entry)"
                ]
            ),
        ] as [(Int, HTTPHeaders, [String])])
    func statuses(status: Int, headers: HTTPHeaders, effects: [String]) {
        var core = CoreHarness()
        _ = core.add(["d"])
        #expect(core.answer(1, status, headers) == ["d shows response \(status)", "answer c1 cancel"] + effects)
    }

    @Test("retry-wait fixes the wait; max-tries=1 gives up at once; a retry while waiting starts now")
    func options() {
        var core = CoreHarness()
        _ = core.add(["fixed"], { $0.retryWait = 5 })
        #expect(core.fail(1, .timedOut).first == "retry fixed in 5.0s")
        _ = core.add(["once"], { $0.maxTries = 1 })
        #expect(core.fail(2, .timedOut).count == 1)
        #expect(core.download("once")?.state == .failed)
        #expect(core.send(.retry("once")) == ["once queued", "once active", "start c3 once http://a.test/once"])
        #expect(core.send(.timerFired(.retry("once"))) == [], "a timer for a wait that was cut short does nothing")
    }

    @Test("a timer for a download paused meanwhile does not start it")
    func pausedWhileWaiting() {
        var core = CoreHarness()
        _ = core.add(["d"])
        _ = core.fail(1, .timedOut)
        #expect(core.send(.pause("d")) == ["d paused"])
        #expect(core.send(.timerFired(.retry("d"))) == [])
        #expect(
            core.send(.resume("d")) == [
                "d queued: the server did not answer in time", "d active", "start c2 d http://a.test/d",
            ])
    }

    @Test("a connection that is no longer the download's is ignored: its failure changes nothing")
    func staleConnection() {
        var core = CoreHarness()
        _ = core.add(["d"])
        _ = core.send(.pause("d"))
        _ = core.send(.resume("d"))
        #expect(core.fail(1, .connectionLost) == [])
        #expect(core.answer(1, 200) == ["answer c1 cancel"])
        #expect(core.download("d")?.state == .active)
    }
}
