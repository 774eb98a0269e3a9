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
            var download = Download(id: id, uris: ["http://b.test/\(id)"])
            download.directory = "/dl"
            return download
        }
        #expect(
            core.send(.metalinkFollowed(downloadID: "m", .success(files))) == [
                "added f1,f2", "f1 active", "start c2 f1 http://b.test/f1", "f2 active",
                "start c3 f2 http://b.test/f2", "m complete",
            ])
    }

    @Test("a Metalink that cannot be read fails its download; follow-metalink=false saves it as it is")
    func unreadableOrNotFollowed() {
        var core = CoreHarness()
        _ = core.add(["m"])
        _ = core.answer(1, 200, Self.metalinkType)
        _ = core.name(1, "/dl/m.meta4")
        _ = core.finish(1, as: "/dl/m.meta4")
        let failure = DownloadFailure("m.meta4: not a Metalink document", code: .metalinkParse)
        #expect(core.send(.metalinkFollowed(downloadID: "m", .failure(failure))) == ["m failed: m.meta4: not a Metalink document"])

        _ = core.add(["kept"], { $0.followMetalink = false })
        _ = core.answer(2, 200, Self.metalinkType)
        _ = core.name(2, "/dl/kept.meta4")
        #expect(core.finish(2, as: "/dl/kept.meta4").last == "kept complete")
    }
}
