import Foundation
import HaulTestSupport
import HaulTorrent
import Testing

@Suite("A torrent's metainfo, as libtorrent reads it")
struct TorrentMetainfoTests {
    @Test(
        "v1, v2 and hybrid torrents give their name, size, pieces, files and hashes",
        arguments: TorrentSwarm.Kind.allCases)
    func readsEachKind(kind: TorrentSwarm.Kind) throws {
        let folder = try ScratchDirectory.make("metainfo")
        let content = folder.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data(TestPattern.bytes(count: 100_000)).write(to: content.appendingPathComponent("one.bin"))
        try Data(TestPattern.bytes(offset: 7, count: 40_000)).write(to: content.appendingPathComponent("two.bin"))
        let torrent = folder.appendingPathComponent("album.torrent")
        let hash = try TorrentSwarm.makeTorrent(
            of: content, at: torrent, kind: kind, pieceLength: 16384, trackers: ["http://127.0.0.1:1/announce"])
        let metainfo = try TorrentMetainfo(bytes: Array(try Data(contentsOf: torrent)))
        #expect(metainfo.name == "album")
        #expect(metainfo.infoHash == hash)
        #expect((metainfo.infoHashV1 != nil) == (kind != .v2))
        #expect((metainfo.infoHashV2 != nil) == (kind != .v1))
        #expect(metainfo.pieceLength == 16384)
        #expect(metainfo.trackers == [["http://127.0.0.1:1/announce"]])
        // libtorrent orders a v1 torrent's files as the folder listed them; v2 sorts them.
        let real = metainfo.files.filter { !$0.isPad }.sorted { $0.path < $1.path }
        #expect(real.map(\.path) == ["album/one.bin", "album/two.bin"])
        #expect(real.map(\.size) == [100_000, 40_000])
        #expect(metainfo.totalSize >= 140_000)
    }

    @Test("bytes that are not a torrent are refused with libtorrent's reason")
    func refusesGarbage() {
        #expect(throws: TorrentError.self) { try TorrentMetainfo(bytes: Array("d4:infoi3ee".utf8)) }
        do {
            _ = try TorrentMetainfo(bytes: Array("not bencode".utf8))
            Issue.record("garbage was read as a torrent")
        } catch {
            #expect(error.description.hasPrefix("not a usable .torrent: "))
        }
    }
}

extension TorrentSwarm.Kind: CaseIterable {
    public static let allCases: [TorrentSwarm.Kind] = [.v1, .v2, .hybrid]
}
