import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// aria2's `--follow-metalink` in the pure core, as input → effects tables: an answer that is a
/// Metalink ends by queueing its files, then completes; one that cannot be read fails.
@Suite("Queue core: following a Metalink")
struct QueueCoreMetalinkTests {
    private static let metalinkType: HTTPHeaders = [
        "Content-Type": "application/metalink4+xml", "Content-Length": "300",
    ]

    @Test("a Metalink answer is read when saved; its files are queued, then it completes")
    func followed() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 2 }
        _ = core.add(["m"])
        _ = core.answer(1, 200, Self.metalinkType)
        _ = core.name(1, "/dl/m.meta4")
        #expect(core.finish(1, as: "/dl/m.meta4").last == "follow metalink m", "not complete yet")
        #expect(core.download("m")?.state == .active)
        let files = ["f1", "f2"].map { id in
            var download = Download(id: GID(stringLiteral: id), uris: ["http://b.test/\(id)"])
            download.directory = "/dl"
            return download
        }
        #expect(
            core.send(.metalinkFollowed(downloadID: "m", .success(files))) == [
                "added f1,f2", "f1 active", "start c2 f1 http://b.test/f1", "f2 active",
                "start c3 f2 http://b.test/f2", "m complete",
            ])
    }

    @Test("a file saved with a Metalink's name is followed whatever its type, as aria2 follows it")
    func followedByName() {
        var core = CoreHarness()
        _ = core.add(["m"])
        _ = core.answer(1, 200, ["Content-Type": "application/octet-stream", "Content-Length": "300"])
        _ = core.name(1, "/dl/release.meta4")
        #expect(core.finish(1, as: "/dl/release.meta4").last == "follow metalink m")
        _ = core.add(["plain"])
        _ = core.answer(2, 200, ["Content-Type": "application/octet-stream", "Content-Length": "300"])
        _ = core.name(2, "/dl/release.iso")
        #expect(core.finish(2, as: "/dl/release.iso").last == "plain complete")
    }

    @Test("a Metalink that cannot be read fails its download; follow-metalink=false saves it as it is")
    func unreadableOrNotFollowed() {
        var core = CoreHarness()
        _ = core.add(["m"])
        _ = core.answer(1, 200, Self.metalinkType)
        _ = core.name(1, "/dl/m.meta4")
        _ = core.finish(1, as: "/dl/m.meta4")
        let failure = DownloadFailure("m.meta4: not a Metalink document", code: .metalinkParse)
        #expect(
            core.send(.metalinkFollowed(downloadID: "m", .failure(failure))) == [
                "m failed: m.meta4: not a Metalink document"
            ])

        _ = core.add(["kept"], { $0.followMetalink = false })
        _ = core.answer(2, 200, Self.metalinkType)
        _ = core.name(2, "/dl/kept.meta4")
        #expect(core.finish(2, as: "/dl/kept.meta4").last == "kept complete")
    }

    @Test("a segment's pieces are checked as it ends; a bad one is dropped with its mirror and fetched from another")
    func piecesAsSegmentsEnd() throws {
        let mebibyte: Int64 = 1 << 20
        let pieces = try PieceHashes(
            algorithm: .sha1, length: mebibyte, hashes: Array(repeating: String(repeating: "0", count: 40), count: 8))
        var core = CoreHarness {
            $0.defaults.split = 4
            $0.defaults.maxConnectionPerServer = 4
            $0.defaults.minSplitSize = mebibyte
            $0.defaults.pieceHashes = pieces
        }
        _ = core.add(["s"], { _ in }, { $0.uris.append("http://b.test/s") })
        _ = core.answer(1, 200, ["Content-Length": "\(8 * mebibyte)", "Accept-Ranges": "bytes", "ETag": "\"e\""])
        let planned = core.name(1, "/dl/s")
        #expect(planned.contains("start c2 s http://b.test/s bytes=2097152-4194303 helper"), "\(planned)")
        _ = core.send(.wrote(core.connection(2), totalBytesWritten: 2 * mebibyte))
        let finished = core.send(.finished(core.connection(2)))
        #expect(finished.first == "verify pieces s 2097152-4194304 from mirror 1", "\(finished)")
        let verified = core.send(.piecesVerified(downloadID: "s", bad: [3 * mebibyte..<4 * mebibyte], mirror: 1))
        #expect(
            verified.prefix(3) == [
                "s shows mirror dropped: http://b.test/s: sent 1 piece that failed the Metalink's hash", "s updated",
                "start c6 s http://a.test/s bytes=3145728-4194303 helper",
            ], "\(verified)")
        #expect(core.download("s")?.completed.count == mebibyte, "the bad piece is not held")
        // Dropped for good: the download no longer lists it, so no later attempt (nor a later
        // run, from the store) goes back to it.
        #expect(core.download("s").map { Array($0.uris) } == ["http://a.test/s"])
        #expect(
            core.send(.piecesVerified(downloadID: "s", bad: [], mirror: 0)).isEmpty, "good pieces change nothing")
    }
}
