import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Resume and completion as input → effects tables on the pure core: what each answer means for
/// the partial file, and how an attempt ends.
@Suite("Queue core: resume and completion")
struct QueueCoreResumeTests {
    /// A download whose partial file holds its first 400 bytes of 1000, read under ETag "v1".
    static func partial(_ download: inout Download) {
        download.destination = "/dl/r"
        download.totalBytes = 1000
        download.completed = ByteRanges([0..<400])
        download.validator = "\"v1\""
    }

    static func ranged(_ first: Int, _ total: Int, etag: String = "\"v1\"") -> HTTPHeaders {
        ["Content-Range": "bytes \(first)-\(total - 1)/\(total)", "Content-Length": "\(total - first)", "ETag": etag]
    }

    @Test("a partial file read under a validator is continued with Range and If-Range, from its end")
    func continues() {
        var core = CoreHarness()
        #expect(
            core.add(["r"], { _ in }, Self.partial) == [
                "added r", "r active", "start c1 r http://a.test/r bytes=400- if-range \"v1\"",
            ])
        #expect(core.answer(1, 206, Self.ranged(400, 1000)) == ["r shows response 206", "name c1 from 400 of 1000"])
        #expect(core.name(1, "/dl/r") == ["r updated", "write c1 /dl/r.part from 400"])
        #expect(core.download("r")?.completed == ByteRanges([0..<400]))
    }

    @Test(
        "what an answer to a ranged request means",
        arguments: [
            // The file changed: the server ignored If-Range's range and sent it all.
            (
                200, ["Content-Length": "1200", "ETag": "\"v2\"", "Accept-Ranges": "bytes"],
                [
                    "r starts over: asked for the rest from 400 B, the server sent the whole file (200); its "
                        + "validator no longer matched: the file changed", "name c1 from 0 of 1200",
                ]
            ),
            // A server that takes no ranges sends it all to every request.
            (
                200, ["Content-Length": "1000", "ETag": "\"v1\""],
                [
                    "r starts over: asked for the rest from 400 B, the server sent the whole file (200); it does "
                        + "not take ranges", "name c1 from 0 of 1000",
                ]
            ),
            // A 206 of another version: never spliced; the whole file is asked for again.
            (
                206, QueueCoreResumeTests.ranged(400, 1000, etag: "\"v2\""),
                ["answer c1 cancel", "cancel c1", "r queued", "r active", "start c2 r http://a.test/r"]
            ),
            // A 416 for a file of 400 bytes, not the 1000 the partial data belongs to: start over.
            (
                416, ["Content-Range": "bytes */400"],
                ["answer c1 cancel", "cancel c1", "r queued", "r active", "start c2 r http://a.test/r"]
            ),
        ] as [(Int, HTTPHeaders, [String])])
    func answers(status: Int, headers: HTTPHeaders, effects: [String]) {
        var core = CoreHarness()
        _ = core.add(["r"], { _ in }, Self.partial)
        #expect(core.answer(1, status, headers) == ["r shows response \(status)"] + effects)
        #expect(core.download("r")?.attempts == 1, "the attempt that found the change is not counted")
    }

    /// A 20 MB body of a server that sends no validator, 5 MB of it written when its
    /// connection was lost.
    static func lostWithoutValidator(_ core: inout CoreHarness, _ headers: HTTPHeaders) {
        _ = core.add(["n"])
        _ = core.answer(1, 200, headers)
        _ = core.name(1, "/dl/n")
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 5_000_000))
        _ = core.fail(1, .connectionLost)
    }

    @Test("a whole file sent to a request for the rest is counted from its first byte, not from the range asked")
    func wholeAgainCountsFromZero() {
        var core = CoreHarness()
        _ = core.add(["r"], { _ in }, Self.partial)
        _ = core.answer(1, 200, ["Content-Length": "1000", "ETag": "\"v1\""])
        #expect(core.name(1, "/dl/r") == ["r updated", "write c1 /dl/r.part from 0"])
        _ = core.send(.wrote(core.connection(1), totalBytesWritten: 300))
        #expect(core.download("r")?.completed == ByteRanges([0..<300]))
    }

    @Test("a body with a length but no validator is continued within the run with a Range, and must keep its length")
    func continuesWithinRun() {
        var core = CoreHarness()
        Self.lostWithoutValidator(&core, ["Content-Length": "20000000"])
        #expect(core.send(.timerFired(.retry("n"))) == ["n active", "start c2 n http://a.test/n bytes=5000000-"])
        #expect(
            core.answer(2, 206, ["Content-Range": "bytes 5000000-19999998/19999999"]) == [
                "n shows response 206", "answer c2 cancel", "cancel c2",
                "n queued: the connection was lost before the whole body arrived", "n active",
                "start c3 n http://a.test/n",
            ], "a 206 of another length is another file: started over")
        #expect(core.download("n")?.completed == ByteRanges())
    }

    @Test("the same answer of the same length is written after the bytes kept")
    func continuesWithinRunSameLength() {
        var core = CoreHarness()
        Self.lostWithoutValidator(&core, ["Content-Length": "20000000"])
        _ = core.send(.timerFired(.retry("n")))
        #expect(
            core.answer(2, 206, ["Content-Range": "bytes 5000000-19999999/20000000"]) == [
                "n shows response 206", "name c2 from 5000000 of 20000000",
            ])
    }

    @Test(
        "without a validator, a body of unknown length, or one stored by an earlier run, starts over")
    func startsOverWithoutValidator() {
        var core = CoreHarness()
        Self.lostWithoutValidator(&core, ["Transfer-Encoding": "chunked"])
        #expect(core.send(.timerFired(.retry("n"))) == ["n active", "start c2 n http://a.test/n"])
        var restored = CoreHarness()
        #expect(
            restored.add(["r"], { _ in }) {
                Self.partial(&$0)
                $0.validator = nil
            } == ["added r", "r active", "start c1 r http://a.test/r"])
    }

    @Test(
        "which partial data a later run drops: none kept, a validator or -c keep it; data without them is dropped",
        arguments: [
            (nil, nil, 400, true), ("\"v1\"", nil, 400, false), (nil, true, 400, false), (nil, nil, 0, false),
        ] as [(String?, Bool?, Int64, Bool)])
    func laterRun(validator: String?, continueExisting: Bool?, kept: Int64, drops: Bool) {
        var download = Download(id: "r", uris: ["http://a.test/r"])
        Self.partial(&download)
        download.validator = validator
        download.options.continueExisting = continueExisting
        download.completed = kept > 0 ? ByteRanges([0..<kept]) : ByteRanges()
        #expect(download.losesPartialDataOnRestart == drops)
        #expect(download.continuesPartialData(options: download.options, startedHere: true))
    }

    @Test("a 416 saying the file ends where the partial data does: the file is looked at, not fetched again")
    func wholeAlready() {
        var core = CoreHarness()
        _ = core.add(["r"], { _ in }) {
            Self.partial(&$0)
            $0.totalBytes = -1
        }
        #expect(
            core.answer(1, 416, ["Content-Range": "bytes */400"]) == [
                "r shows response 416", "answer c1 cancel", "cancel c1", "r queued", "r active", "check whole r",
            ])
        #expect(core.download("r")?.totalBytes == 400 && core.download("r")?.attempts == 1)
    }

    @Test("a partial file that lost the bytes the store counted is started over, not written after a hole")
    func partialShrank() {
        var core = CoreHarness()
        _ = core.add(["r"], { _ in }, Self.partial)
        _ = core.answer(1, 206, Self.ranged(400, 1000))
        #expect(
            core.name(1, "/dl/r", holds: false) == [
                "answer c1 cancel", "cancel c1", "r queued", "r active", "start c2 r http://a.test/r",
            ])
        #expect(core.download("r")?.completed == ByteRanges() && core.download("r")?.validator == nil)
    }

    @Test("a name that cannot be taken fails the download; a name found after a pause is kept for the next attempt")
    func naming() {
        var core = CoreHarness()
        _ = core.add(["taken", "paused"])
        _ = core.answer(1, 200)
        let request = core.nameRequests[1]
        let failure = DownloadFailure("/dl/taken already exists", code: .fileExists)
        #expect(
            request.map { core.send(.named($0, .failure(failure), holdsOffset: true, unnamed: false)) } == [
                "answer c1 cancel", "taken failed: /dl/taken already exists",
            ])
        #expect(core.download("taken")?.errorCode == .fileExists)
        _ = core.answer(2, 200)
        _ = core.send(.pause("paused"))
        #expect(core.name(2, "/dl/paused") == ["answer c2 cancel"])
        #expect(core.download("paused")?.destination == "/dl/paused")
    }

    @Test("an attempt completes once its file is named and its load has ended, in either order")
    func completes() {
        var core = CoreHarness()
        _ = core.add(["d"])
        _ = core.answer(1, 200, ["Content-Length": "10"])
        _ = core.name(1, "/dl/d")
        let id = core.connection(1)
        #expect(core.send(.bodyDone(id, path: "/dl/d.part")) == ["finish c1 /dl/d.part"])
        #expect(core.send(.finished(id)) == [], "the digest is still being checked")
        #expect(core.send(.fileFinished(id, downloadID: "d", .success("/dl/d.1"))) == ["d complete"])
        #expect(core.download("d")?.destination == "/dl/d.1")
    }

    @Test("a digest that does not match fails the download; a load that ends with no body fails it too")
    func failures() {
        var core = CoreHarness()
        _ = core.add(["sum", "empty"], { $0.maxTries = 1 })
        _ = core.answer(1, 200)
        _ = core.name(1, "/dl/sum")
        let id = core.connection(1)
        let mismatch = DownloadFailure("checksum mismatch", code: .checksumMismatch)
        _ = core.send(.bodyDone(id, path: "/dl/sum.part"))
        _ = core.send(.fileFinished(id, downloadID: "sum", .failure(mismatch)))
        #expect(core.send(.finished(id)) == ["sum failed: checksum mismatch"])
        #expect(
            core.send(.finished(core.connection(2))) == [
                "empty failed: the server's reply ended without a body to save"
            ])
    }

    @Test("conditional-get: a 304 completes with the file that is there; a dry run completes with no file")
    func noTransfer() {
        var core = CoreHarness()
        _ = core.add(["same"], { $0.conditionalGet = true })
        #expect(core.started[1]?.conditionalLookup?.url.absoluteString == "http://a.test/same")
        let response = Response(url: URL(fileURLWithPath: "/"), statusCode: 304)
        let facts = ResponseFacts(
            response, currentRequest: Request(url: response.url), conditionalFile: "/dl/same", unchangedSize: 42)
        #expect(
            core.send(.responded(core.connection(1), facts)) == [
                "same shows response 304", "answer c1 cancel", "same complete",
            ])
        #expect(core.download("same")?.completed == ByteRanges([0..<42]))
        _ = core.add(["dry"], { $0.dryRun = true })
        #expect(
            core.answer(2, 200, ["Content-Length": "5"]) == [
                "dry shows response 200", "answer c2 cancel", "dry complete",
            ])
        #expect(core.download("dry")?.destination == "/dl/dry" && core.download("dry")?.totalBytes == 5)
    }
}
