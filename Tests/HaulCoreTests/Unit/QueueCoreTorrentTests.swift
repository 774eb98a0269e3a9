import Foundation
import HaulTorrent
import Testing

@testable import HaulCore

/// Torrents in the pure core, as input → effects tables: a torrent is admitted like any download
/// (a slot, in queue order), seeds without a slot once whole, completes when its ratio or time is
/// reached, and leaves the session when paused, removed or failed.
@Suite("Queue core: torrents")
struct QueueCoreTorrentTests {
    static let magnet = "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567"

    /// A status of `done` of `wanted` bytes, `uploaded` sent; whole when `done == wanted`.
    static func status(_ done: Int64, of wanted: Int64, uploaded: Int64 = 0) -> TorrentStatus {
        var status = TorrentStatus(name: "album", infoHash: "0123")
        status.hasMetadata = true
        status.totalWanted = wanted
        status.totalWantedDone = done
        status.isFinished = done == wanted
        status.uploaded = uploaded
        status.downloadRate = 1000
        return status
    }

    static let named = TorrentNaming(destination: "/dl/album", wanted: 100)

    @Test("a magnet link and a .torrent take slots like any download, and the next waits for one")
    func admittedBySlots() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        #expect(
            core.add(["t"], uri: { _ in Self.magnet }) == [
                "added t", "t active", "start torrent t in /dl",
            ])
        #expect(core.add(["u"], uri: { _ in "/home/me/linux.torrent" }) == ["added u"])
        #expect(core.download("u")?.state == .queued)
    }

    @Test("progress comes from the status; whole, it seeds without its slot, then completes at its ratio")
    func seedsThenCompletes() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        _ = core.add(["t"], uri: { _ in Self.magnet })
        _ = core.add(["w"])
        #expect(core.send(.torrentNamed("t", Self.named)) == ["t updated"])
        #expect(
            core.send(.torrentReported("t", Self.status(40, of: 100))) == [
                "t 40 of 100", "t shows torrent up 0",
            ])
        // Whole: it seeds (ratio 1.0 by default), and the waiting download takes the slot.
        #expect(
            core.send(.torrentReported("t", Self.status(100, of: 100, uploaded: 10))) == [
                "t 100 of 100", "t shows torrent up 10 seeding", "t seeds", "w active", "start c1 w http://a.test/w",
            ])
        #expect(core.download("t")?.state == .active)
        #expect(
            core.send(.torrentReported("t", Self.status(100, of: 100, uploaded: 100))) == [
                "t 100 of 100", "t shows torrent up 100 seeding", "stop torrent t", "t complete",
            ])
    }

    @Test("live options reach a running torrent at once; more files selected while seeding, it downloads again")
    func liveOptions() throws {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        _ = core.add(["t"], uri: { _ in Self.magnet })
        _ = core.send(.torrentNamed("t", Self.named))
        var options = DownloadOptions()
        options.selectFile = try FileSelection(parsing: "2")
        #expect(core.send(.changeLiveOptions("t", options)) == ["t updated", "retune torrent t select 2"])
        #expect(core.download("t")?.state == .active)
        // Whole, it seeds and gives its slot up; a queued download takes it.
        _ = core.send(.torrentReported("t", Self.status(100, of: 100)))
        _ = core.add(["w"])
        #expect(core.download("w")?.state == .active)
        // Another file selected: it wants pieces again, downloads, and holds a slot once more.
        options.selectFile = try FileSelection(parsing: "1,2")
        _ = core.send(.changeLiveOptions("t", options))
        #expect(
            core.send(.torrentReported("t", Self.status(100, of: 300))) == ["t 100 of 300", "t shows torrent up 0"])
        _ = core.add(["x"])
        #expect(core.download("x")?.state == .queued)
        // Whole again: it seeds again, said again.
        #expect(core.send(.torrentReported("t", Self.status(300, of: 300))).contains("t seeds"))
    }

    @Test("seed-time=0 completes at once; seed-time ends seeding when the minutes pass, ratio 0.0 or not")
    func seedTime() {
        var core = CoreHarness()
        _ = core.add(["t"], uri: { _ in Self.magnet }) { $0.seedTime = 0 }
        _ = core.send(.torrentNamed("t", Self.named))
        #expect(
            core.send(.torrentReported("t", Self.status(100, of: 100))).suffix(2) == ["stop torrent t", "t complete"])

        _ = core.add(["s"], uri: { _ in Self.magnet + "1" }) {
            $0.seedTime = 1
            $0.seedRatio = 0
        }
        _ = core.send(.torrentNamed("s", Self.named))
        #expect(!core.send(.torrentReported("s", Self.status(100, of: 100, uploaded: 900))).contains("s complete"))
        core.clock.advance(61)
        #expect(
            core.send(.torrentReported("s", Self.status(100, of: 100))).suffix(2) == ["stop torrent s", "s complete"])
    }

    @Test("pausing or removing a torrent takes it out of the session; resumed, it starts again")
    func pauseAndRemove() {
        var core = CoreHarness()
        _ = core.add(["t"], uri: { _ in Self.magnet })
        #expect(core.send(.pause("t")) == ["stop torrent t", "t paused"])
        #expect(core.send(.resume("t")) == ["t queued", "t active", "start torrent t in /dl"])
        #expect(core.send(.remove(["t"])) == ["removed t", "stop torrent t"])
    }

    @Test("a torrent refused (its names, its metainfo) fails without a retry, and its slot is free")
    func refused() {
        var core = CoreHarness { $0.maxConcurrentDownloads = 1 }
        _ = core.add(["t"], uri: { _ in "/home/me/evil.torrent" })
        _ = core.add(["w"])
        let failure = DownloadFailure("the torrent is refused: '.bashrc'", code: .torrentParse)
        #expect(
            core.send(.torrentStarted("t", .failure(failure))) == [
                "stop torrent t", "t failed: the torrent is refused: '.bashrc'", "w active",
                "start c1 w http://a.test/w",
            ])
        #expect(core.download("t")?.errorCode == .torrentParse)
    }

    @Test("a status of a torrent that is not running is passed over")
    func staleStatus() {
        var core = CoreHarness()
        _ = core.add(["t"], uri: { _ in Self.magnet })
        _ = core.send(.pause("t"))
        #expect(core.send(.torrentReported("t", Self.status(50, of: 100))) == [])
        #expect(core.send(.torrentNamed("t", Self.named)) == [])
    }

    @Test(
        "seeding policy as aria2 decides it",
        arguments: [
            (1.0, nil, 99, 100, 0.0, false), (1.0, nil, 100, 100, 0.0, true), (0.0, nil, 10_000, 100, 1e9, false),
            (0.0, 2.0, 0, 100, 119.0, false), (0.0, 2.0, 0, 100, 120.0, true), (2.0, 0.0, 0, 100, 0.0, true),
            (1.0, nil, 5, 0, 0.0, false),
        ] as [(Double, Double?, Int64, Int64, Double, Bool)])
    func policy(ratio: Double, minutes: Double?, uploaded: Int64, size: Int64, seconds: Double, ends: Bool) {
        #expect(
            SeedingPolicy(ratio: ratio, minutes: minutes).ends(uploaded: uploaded, of: size, afterSeconds: seconds)
                == ends)
    }
}
