import Foundation
import HaulCore
import HaulTorrent
import Testing

@testable import HaulTUI

/// Torrents in the queue view: their row's columns (upload, seeds and peers, ratio), their
/// detail pane (swarm, files with ticks, peers, trackers, pieces), and the keys that change
/// them (`[` `]` `f` `S`), as effects.
@Suite("Torrents in the queue view")
struct TorrentViewTests {
    static let hash = "0123456789abcdef0123456789abcdef01234567"

    /// An album torrent downloading beside the fixtures' HTTP downloads, and one seeding.
    static func state(width: Int = 120, height: Int = 40) -> (AppState, album: Download, seeding: Download) {
        var album = Download(id: gid(20), uris: ["/home/me/album.torrent"])
        album.state = .active
        album.totalBytes = 5_000_000
        album.completed = ByteRanges([0..<2_000_000])
        album.destination = "/data/album"
        var seeding = Download(id: gid(21), uris: ["magnet:?xt=urn:btih:\(hash)&dn=live"])
        seeding.state = .active
        seeding.totalBytes = 3_000_000
        seeding.completed = ByteRanges([0..<3_000_000])
        seeding.destination = "/data/live"
        var state = Fixtures.state(width: width, height: height, Array(Fixtures.mixed.prefix(3)) + [album, seeding])
        _ = state.reduce(.queue(Fixtures.progress(album, speed: 2_097_152)))
        _ = state.reduce(
            .queue(
                .activity(
                    id: album.id,
                    .torrent(
                        TorrentActivity(
                            infoHash: hash, uploadSpeed: 65536, uploaded: 1_000_000, peers: 7, seeds: 2,
                            piecesDone: 8, pieceCount: 20, pieceLength: 262_144)))))
        _ = state.reduce(
            .queue(
                .activity(
                    id: seeding.id,
                    .torrent(
                        TorrentActivity(
                            infoHash: hash, uploadSpeed: 1_048_576, uploaded: 4_500_000, peers: 3, seeds: 0,
                            seeding: true, piecesDone: 12, pieceCount: 12, pieceLength: 262_144)))))
        return (state, album, seeding)
    }

    static var detail: TorrentDetail {
        var detail = TorrentDetail()
        detail.infoHash = hash
        detail.files = [
            TorrentFile(path: "album/disc/b.bin", size: 2_000_000, done: 2_000_000, priority: 4),
            TorrentFile(path: "album/a.bin", size: 3_000_000, done: 0, priority: 0),
            TorrentFile(path: "album/\u{1B}[2Jcover.jpg", size: 100_000, done: 50_000, priority: 4),
        ]
        detail.peers = [
            TorrentPeer(ip: "127.0.0.1", port: 6881, client: "aria2/1.36.0", downloadRate: 1_048_576, isSeed: true),
            TorrentPeer(ip: "10.0.0.2", port: 51413, client: "Transmission 4.0", uploadRate: 65536),
        ]
        detail.trackers = [
            TorrentTracker(url: "http://tracker.example.org/announce", tier: 0),
            TorrentTracker(url: "udp://down.example.net:6969", tier: 1, message: "timed out"),
        ]
        detail.pieces = [0xFF, 0x00, 0xF0]
        return detail
    }

    @Test("a torrent's row: upload, seeds/peers and ratio; a seeding one says so")
    func rows() {
        let (state, _, _) = Self.state()
        let screen = ScreenRenderer.render(state)
        expectSnapshot(screen, named: "torrents-120x40")
        #expect(screen.text.contains("▲ seeding"))
        #expect(screen.text.contains("2/7"))
        #expect(screen.text.contains("1.50"))
        // Without torrents, the columns are as they were.
        let plain = ScreenRenderer.render(Fixtures.state())
        #expect(!plain.text.contains("RATIO"))
    }

    @Test("the detail pane: swarm, upload and ratio, files ticked with the cursor, peers, trackers, pieces")
    func detailPane() {
        var (state, album, _) = Self.state()
        _ = state.reduce(.keys([.down, .down, .down]))
        #expect(state.selected == album.id)
        #expect(state.reduce(.keys([.enter])) == [.askTorrentDetail(album.id)])
        _ = state.reduce(.torrentDetail(album.id, Self.detail))
        let screen = ScreenRenderer.render(state)
        expectSnapshot(screen, named: "torrent-detail-120x40")
        #expect(screen.text.contains("▸[x] album/disc/b.bin"))
        #expect(screen.text.contains(" [ ] album/a.bin"))
        #expect(!screen.text.contains("\u{1B}"))
        #expect(screen.text.contains("127.0.0.1:6881"))
        #expect(screen.text.contains("timed out"))
        #expect(screen.text.contains("pieces"))
        // Each second while the pane shows, the detail is asked for again.
        #expect(state.reduce(.tick(Fixtures.now)) == [.askTorrentDetail(album.id)])
    }

    @Test("[ ] move among the files; f ticks one (select-file); the last one cannot be unticked")
    func files() throws {
        var (state, album, _) = Self.state()
        _ = state.reduce(.keys([.down, .down, .down, .enter]))
        _ = state.reduce(.torrentDetail(album.id, Self.detail))
        _ = state.reduce(.keys([.character("]")]))
        #expect(state.fileCursor == 1)
        var both = DownloadOptions()
        both.selectFile = try FileSelection(parsing: "1-3")
        #expect(state.reduce(.keys([.character("f")])) == [.changeLiveOptions(album.id, both)])
        _ = state.reduce(.keys([.character("]"), .character("]"), .character("]")]))
        #expect(state.fileCursor == 2)
        var two = DownloadOptions()
        two.selectFile = try FileSelection(parsing: "1-2")
        #expect(state.reduce(.keys([.character("f")])) == [.changeLiveOptions(album.id, two)])
        var only = TorrentDetail()
        only.files = [TorrentFile(path: "album/a.bin", size: 10)]
        _ = state.reduce(.torrentDetail(album.id, only))
        #expect(state.fileCursor == 0)
        #expect(state.reduce(.keys([.character("f")])) == [])
        #expect(state.message?.isError == true)
        // A detail that comes for a row left since is passed over.
        _ = state.reduce(.keys([.up]))
        _ = state.reduce(.torrentDetail(album.id, Self.detail))
        #expect(state.torrentDetail?.id != state.selected)
    }

    @Test("S stops a seeding torrent (seed-time 0); on another row it says why not")
    func stopSeeding() {
        var (state, album, seeding) = Self.state()
        _ = state.reduce(.keys([.down, .down, .down]))
        #expect(state.selected == album.id)
        #expect(state.reduce(.keys([.character("S")])) == [])
        #expect(state.message?.isError == true)
        _ = state.reduce(.keys([.down]))
        var stop = DownloadOptions()
        stop.seedTime = 0
        #expect(state.selected == seeding.id)
        #expect(state.reduce(.keys([.character("S")])) == [.changeLiveOptions(seeding.id, stop)])
    }

    @Test("a daemon's extreme numbers are drawn, not trapped on: a file done past its size, pieces past its bits")
    func extremeNumbers() {
        var (state, album, _) = Self.state()
        _ = state.reduce(.keys([.down, .down, .down, .enter]))
        _ = state.reduce(
            .queue(.activity(id: album.id, .torrent(TorrentActivity(infoHash: Self.hash, pieceCount: Int.max)))))
        var detail = TorrentDetail()
        detail.files = [TorrentFile(path: "album/a.bin", size: 1, done: Int64.max)]
        detail.pieces = [0xFF]
        _ = state.reduce(.torrentDetail(album.id, detail))
        let screen = ScreenRenderer.render(state)
        #expect(screen.text.contains("album/a.bin"))
        #expect(screen.text.contains("pieces"))
    }
}
