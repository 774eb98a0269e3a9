import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Admission as input → effects tables on the pure core: no sockets, no files, no waiting.
@Suite("Queue core: admission")
struct QueueCoreAdmissionTests {
    @Test("downloads start in queue order while slots are free; an ended one frees its slot for the next")
    func slots() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 2 }
        #expect(
            core.add(["d1", "d2", "d3"]) == [
                "added d1,d2,d3",
                "d1 active", "start c1 d1 http://a.test/d1",
                "d2 active", "start c2 d2 http://a.test/d2",
            ])
        _ = core.answer(1, 200, ["Content-Length": "10"])
        _ = core.name(1, "/dl/d1")
        #expect(
            core.finish(1, as: "/dl/d1") == [
                "finish c1 /dl/d1.part", "d1 complete", "d3 active", "start c3 d3 http://a.test/d3",
            ])
    }

    @Test("with -j taken, a host that answered over HTTP/2 gets queued downloads as streams, up to its window")
    func streams() {
        var core = CoreHarness {
            $0.maxConcurrentDownloads = 1
            $0.streamWindow = 3
        }
        let uris = [
            "h1": "https://h2.test/1", "o1": "https://other.test/1", "h2": "https://h2.test/2",
            "h3": "https://h2.test/3", "h4": "https://h2.test/4",
        ]
        #expect(
            core.add(["h1", "o1", "h2", "h3", "h4"], uri: { uris[$0] ?? "" }) == [
                "added h1,o1,h2,h3,h4", "h1 active", "start c1 h1 https://h2.test/1",
            ])
        // Over HTTP/2, after a round trip that cost something, its host's next downloads start
        // until 3 are in flight; other.test's waits.
        core.clock.advance(0.05)
        #expect(
            core.answer(1, 200, ["Content-Length": "10"], httpVersion: "HTTP/2").prefix(4) == [
                "h2 active", "start c2 h2 https://h2.test/2", "h3 active", "start c3 h3 https://h2.test/3",
            ])
        #expect(core.streams == ["h2", "h3"])
        // A stream that ends makes room for the host's next; the -j slot goes to the queue's next.
        #expect(
            core.send(.cancel("h2")) == ["cancel c2", "h2 cancelled", "h4 active", "start c4 h4 https://h2.test/4"])
        #expect(
            core.send(.cancel("h1")) == [
                "cancel c1", "h1 cancelled", "o1 active", "start c5 o1 https://other.test/1",
            ])
    }

    @Test("https://h/, https://h:443/ and HTTPS://H are one host to the stream window")
    func oneOriginStreams() {
        var core = CoreHarness {
            $0.maxConcurrentDownloads = 1
            $0.streamWindow = 2
        }
        let uris = [
            "h1": "https://h.test/1", "h2": "https://h.test:443/2", "h3": "HTTPS://H.TEST/3", "h4": "https://h.test/4",
        ]
        #expect(core.add(["h1", "h2", "h3", "h4"], uri: { uris[$0] ?? "" }).count == 3)
        core.clock.advance(0.05)
        // Two in flight from the one origin, however its URIs spell it: one stream beyond -j.
        #expect(
            core.answer(1, 200, ["Content-Length": "10"], httpVersion: "HTTP/2").prefix(2) == [
                "h2 active", "start c2 h2 https://h.test:443/2",
            ])
        #expect(core.streams == ["h2"])
        #expect(core.send(.cancel("h2")) == ["cancel c2", "h2 cancelled", "h3 active", "start c3 h3 HTTPS://H.TEST/3"])
        #expect(core.streams == ["h3"])
    }

    @Test("a host whose TLS agreed on HTTP/2 gets streams before its first response; another host does not")
    func streamsFromTheHandshake() {
        var core = CoreHarness {
            $0.maxConcurrentDownloads = 1
            $0.streamWindow = 2
        }
        #expect(core.add(["a", "b", "c"], uri: { "https://h2.test/\($0)" }).count == 3)
        // A redirect's hop to another host says nothing of this one.
        #expect(core.send(.multiplexing(core.connection(1), hostKey: "https://elsewhere.test")).isEmpty)
        core.clock.advance(0.03)
        #expect(
            core.send(.multiplexing(core.connection(1), hostKey: "https://h2.test")) == [
                "b active", "start c2 b https://h2.test/b",
            ])
        // Said again (each connection's hop says it): nothing more.
        #expect(core.send(.multiplexing(core.connection(2), hostKey: "https://h2.test")).isEmpty)
        #expect(core.streams == ["b"])
    }

    @Test("a host that agreed on HTTP/2 at once (a near link, loopback) gets no streams beyond -j")
    func nearHostNoStreams() {
        var core = CoreHarness {
            $0.maxConcurrentDownloads = 1
            $0.streamWindow = 4
        }
        #expect(core.add(["a", "b", "c"], uri: { "https://near.test/\($0)" }).count == 3)
        core.clock.advance(0.002)
        #expect(core.send(.multiplexing(core.connection(1), hostKey: "https://near.test")).isEmpty)
        #expect(!core.answer(1, 200, ["Content-Length": "10"], httpVersion: "HTTP/2").contains("b active"))
        #expect(core.streams.isEmpty && core.core.state.origins["https://near.test"].streams == .near)
    }

    @Test("over HTTP/1.1 a host gets -j downloads at a time, no streams")
    func noStreamsOverHTTP1() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        #expect(core.add(["a", "b"], uri: { "https://h1.test/\($0)" }).count == 3)
        #expect(!core.answer(1, 200, ["Content-Length": "10"]).contains("b active"))
        #expect(core.streams.isEmpty)
    }

    @Test("a host at its cap holds back its next download while later ones from other hosts start")
    func hostCap() {
        var core = CoreHarness { $0.maxConnectionsPerHost = 1 }
        let uris = ["a1": "http://a.test/1", "a2": "http://A.test/2", "b1": "https://b.test/1"]
        #expect(
            core.add(["a1", "a2", "b1"], uri: { uris[$0] ?? "" }) == [
                "added a1,a2,b1",
                "a1 active", "start c1 a1 http://a.test/1",
                "b1 active", "start c2 b1 https://b.test/1",
            ])
        #expect(core.send(.pause("a1")) == ["cancel c1", "a1 paused", "a2 active", "start c3 a2 http://A.test/2"])
    }

    @Test("https://h/, https://h:443/ and HTTPS://H are one host to the per-host cap; https://h:8443/ another")
    func oneOrigin() {
        var core = CoreHarness { $0.maxConnectionsPerHost = 1 }
        let uris = [
            "h1": "https://h.test/1", "h2": "https://h.test:443/2", "h3": "HTTPS://H.TEST/3",
            "o1": "https://h.test:8443/1",
        ]
        #expect(
            core.add(["h1", "h2", "h3", "o1"], uri: { uris[$0] ?? "" }) == [
                "added h1,h2,h3,o1",
                "h1 active", "start c1 h1 https://h.test/1",
                "o1 active", "start c2 o1 https://h.test:8443/1",
            ])
        #expect(core.send(.pause("h1")) == ["cancel c1", "h1 paused", "h2 active", "start c3 h2 https://h.test:443/2"])
    }

    @Test("the per-host cap changed while the queue runs admits what it held back; lowered, it stops none")
    func capChangesLive() {
        var core = CoreHarness { $0.maxConnectionsPerHost = 1 }
        #expect(core.add(["a1", "a2", "a3"], uri: { "http://a.test/\($0)" }).count == 3)
        #expect(
            core.send(.setMaxConnectionsPerHost(3)) == [
                "a2 active", "start c2 a2 http://a.test/a2", "a3 active", "start c3 a3 http://a.test/a3",
            ])
        #expect(core.send(.setMaxConnectionsPerHost(1)).isEmpty)
        #expect(core.send(.pause("a1")) == ["cancel c1", "a1 paused"])
    }

    @Test("a paused download waits; resuming or moving it to the top admits it first")
    func pausedAndMoved() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        #expect(core.add(["d1"], { $0.pause = true }, { $0.state = .paused }) == ["added d1"])
        #expect(core.add(["d2", "d3"]) == ["added d2,d3", "d2 active", "start c1 d2 http://a.test/d2"])
        #expect(core.send(.move("d3", .top)) == ["moved d3 to 0"])
        #expect(core.send(.pause("d2")) == ["cancel c1", "d2 paused", "d3 active", "start c2 d3 http://a.test/d3"])
        #expect(core.send(.resume("d1")) == ["d1 queued"])
        #expect(core.send(.cancel("d3")) == ["cancel c2", "d3 cancelled", "d1 active", "start c3 d1 http://a.test/d1"])
    }

    @Test("a download with a priority goes ahead of the waiting ones of lower priority, running ones aside")
    func priority() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        #expect(core.add(["d1", "d2", "d3"]).first == "added d1,d2,d3")
        #expect(
            core.add(["urgent"], { $0.priority = 5 }) == ["added urgent", "moved urgent to 1"],
            "ahead of d2 and d3, not of the running d1")
        #expect(
            core.add(
                ["low", "high", "same"], { _ in }, { $0.options.priority = ["low": -1, "high": 9, "same": 5][$0.id] })
                == ["added low,high,same", "moved high to 1", "moved same to 3"],
            "by priority, then in the order added; a negative one stays behind all")
        #expect(core.add(["plain"]) == ["added plain", "moved plain to 6"], "0 goes before -1")
        #expect(
            core.core.state.downloads.ids == ["d1", "high", "urgent", "same", "d2", "d3", "plain", "low"])
        _ = core.answer(1, 200, ["Content-Length": "10"])
        _ = core.name(1, "/dl/d1")
        #expect(core.finish(1, as: "/dl/d1").suffix(2) == ["high active", "start c2 high http://a.test/high"])
    }

    @Test("a download the store records whole is looked at, not fetched; what the look finds decides")
    func recordedWhole() {
        var core = CoreHarness()
        let whole: (inout Download) -> Void = {
            $0.destination = "/dl/w"
            $0.totalBytes = 100
            $0.completed = ByteRanges([0..<100])
        }
        #expect(core.add(["w"], { _ in }, whole) == ["added w", "w active", "check whole w"])
        #expect(core.send(.wholeChecked(downloadID: "w", .success("/dl/w"))) == ["w complete"])
        #expect(core.add(["gone"], { _ in }, whole) == ["added gone", "gone active", "check whole gone"])
        #expect(
            core.send(.wholeChecked(downloadID: "gone", nil)) == [
                "gone queued", "gone active", "start c1 gone http://a.test/gone",
            ])
        #expect(core.download("gone")?.attempts == 1, "the look is not an attempt")
    }

    @Test("a URI that cannot be a request fails the download at once, and the next one starts")
    func badURI() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        #expect(
            core.add(["bad", "ok"], uri: { $0 == "bad" ? "" : "http://a.test/ok" }) == [
                "added bad,ok", "bad failed: '' is not a usable URI", "ok active", "start c1 ok http://a.test/ok",
            ])
    }

    @Test("removing a running download stops its connection and admits the next")
    func remove() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        _ = core.add(["d1", "d2"])
        #expect(core.send(.remove(["d1"])) == ["removed d1", "cancel c1", "d2 active", "start c2 d2 http://a.test/d2"])
        #expect(core.core.state.downloads.ids == ["d2"] && core.core.state.downloads.index(of: "d2") == 0)
    }

    @Test("mirrors are taken in turn, one an attempt")
    func mirrorsInTurn() {
        var core = CoreHarness()
        _ = core.add(
            ["m"], uri: { _ in "http://one.test/f" }, { $0.retryWait = 0 }, { $0.uris.append("http://two.test/f") })
        #expect(
            core.fail(1, .connectionLost) == [
                "retry m in 0.0s", "m queued: the connection was lost before the whole body arrived",
            ])
        #expect(core.send(.timerFired(.retry("m"))) == ["m active", "start c2 m http://two.test/f"])
    }
}
