import Foundation
import HaulCore
import HaulTorrent
import Testing

@testable import HaulRPC

/// A torrent's aria2 records both ways: what haul's daemon writes (`tellStatus`, `getPeers`) is
/// what an attached UI reads back, and a poll's snapshot says a torrent's swarm as activity.
@Suite("aria2 records of torrents")
struct Aria2TorrentRecordTests {
    static var download: Download {
        var download = Download(id: GID(0x7) ?? .next(), uris: ["/home/me/album.torrent"])
        download.state = .active
        download.directory = "/data"
        download.totalBytes = 5_000_000
        download.completed = ByteRanges([0..<2_000_000])
        return download
    }

    static var detail: TorrentDetail {
        var detail = TorrentDetail()
        detail.infoHash = "0123456789abcdef0123456789abcdef01234567"
        detail.comment = "a comment"
        detail.creationDate = 1_796_685_521
        detail.files = [
            TorrentFile(path: "album/disc/b.bin", size: 2_000_000, done: 2_000_000, priority: 4),
            TorrentFile(path: "album/a.bin", size: 3_000_000, done: 262_144, priority: 0),
        ]
        detail.trackers = [
            TorrentTracker(url: "http://t.example/announce", tier: 0),
            TorrentTracker(url: "udp://u.example:1", tier: 1),
        ]
        detail.pieces = [0xFF, 0xF0]
        detail.peers = [
            TorrentPeer(
                ip: "127.0.0.1", port: 6881,
                peerID: Array("A2-1-36-0-".utf8) + [0xDC, 0x2E, 0x47, 0xF9, 0, 1, 2, 3, 4, 5],
                bitfield: [0xFF, 0xF0], downloadRate: 1000, uploadRate: 20, isSeed: true, amChoking: true,
                peerChoking: false)
        ]
        return detail
    }

    @Test("what tellStatus and getPeers write, a reader gets back: files, trackers, pieces, peers")
    func roundTrip() throws {
        var activity = DownloadActivity()
        activity.torrent = TorrentActivity(
            infoHash: Self.detail.infoHash, uploadSpeed: 20, uploaded: 7, peers: 1, seeds: 1, pieceCount: 12,
            pieceLength: 262_144)
        let status = Aria2Status.record(of: Self.download, activity: activity, torrent: Self.detail)
        let read = try #require(
            Aria2Status.torrentDetail(from: status, peers: .array(Aria2Status.peers(in: Self.detail))))
        #expect(read.infoHash == Self.detail.infoHash)
        #expect(read.comment == "a comment" && read.creationDate == 1_796_685_521)
        #expect(read.files.map(\.path) == ["album/disc/b.bin", "album/a.bin"])
        #expect(read.files.map(\.priority) == [4, 0])
        #expect(read.files.map(\.done) == [2_000_000, 262_144])
        #expect(read.announceList == [["http://t.example/announce"], ["udp://u.example:1"]])
        #expect(read.pieces == [0xFF, 0xF0])
        #expect(
            read.peers
                == Self.detail.peers.map { peer in
                    var shown = peer
                    shown.client = ""
                    return shown
                })
        // Its row, as a poll reads it: named by its folder, its swarm as activity.
        let (row, _) = try #require(Aria2Status.download(from: status))
        #expect(row.destination == "/data/album")
        let torrent = try #require(Aria2Status.torrentActivity(from: status))
        #expect(torrent.peers == 1 && torrent.seeds == 1 && torrent.uploaded == 7 && !torrent.seeding)
        #expect(
            Aria2Status.torrentActivity(
                from: Aria2Status.record(of: Download(id: .next(), uris: ["http://h/a"]), activity: nil)) == nil)
    }

    @Test("a poll's snapshot says a torrent's swarm after its state; an unchanged one is not said again")
    func snapshotEvents() {
        var record = Aria2Status.record(of: Self.download, activity: nil, torrent: Self.detail).object ?? [:]
        record["seeder"] = "true"
        record["connections"] = "3"
        let first = RemoteSnapshot(records: [.object(record)])
        let events = RemoteSnapshot().events(to: first)
        #expect(events.count == 2)
        guard case .activity(_, .torrent(let torrent))? = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(torrent.seeding && torrent.peers == 3)
        #expect(first.events(to: first).isEmpty)
        record["uploadLength"] = "99"
        let next = RemoteSnapshot(records: [.object(record)])
        #expect(first.events(to: next).count == 1)
    }
}
