import Foundation
import HaulTestSupport
import HaulTorrent
import Testing

@testable import HaulCore

/// A torrent's file names through the name gate: as libtorrent reads a hostile metainfo, then as
/// haul saves it (renamed inside the download's folder, or refused).
@Suite("A torrent's names through the gate")
struct TorrentNamesTests {
    /// The files libtorrent reads from `bytes`.
    static func files(_ bytes: [UInt8]) throws -> [TorrentFile] {
        try TorrentMetainfo(bytes: bytes).files
    }

    @Test("'../../.bashrc' and '.ssh/authorized_keys' land inside the torrent's folder, renamed plainly")
    func climbingAndHidden() throws {
        let files = try Self.files(
            HostileTorrent.make(
                name: "evil",
                files: [([".ssh", "authorized_keys"], 100), (["..", "..", ".bashrc"], 50), (["ok.txt"], 10)]))
        let names = try TorrentNames.check(files).get()
        #expect(names.top == "evil")
        let saved = files.indices.map { names.renamed[$0] ?? files[$0].path }
        #expect(saved.allSatisfy { $0.hasPrefix("evil/") && !$0.contains("..") && !$0.contains("/.") }, "\(saved)")
        #expect(saved.contains("evil/ssh/authorized_keys"), "\(saved)")
    }

    @Test("a single file named '.bashrc' is saved as 'bashrc'; one named '..' is refused")
    func singleFile() throws {
        let names = try TorrentNames.check(try Self.files(HostileTorrent.single(name: ".bashrc", length: 10))).get()
        #expect(names.top == "bashrc")
        #expect(names.renamed == [0: "bashrc"])
        let dots = TorrentNames.check([TorrentFile(path: "..", size: 1)])
        #expect(throws: DownloadFailure.self) { try dots.get() }
    }

    @Test("terminal escapes are taken out of a name; a symbolic link and two files at one path are refused")
    func escapesLinksCollisions() throws {
        let escaped = try TorrentNames.check([TorrentFile(path: "t/\u{1B}[2Jclear.txt", size: 1)]).get()
        #expect(escaped.renamed[0].map { !$0.contains("\u{1B}") } == true)
        let link = TorrentNames.check([TorrentFile(path: "t/link", size: 0, isSymlink: true)])
        #expect((try? link.get()) == nil)
        let twice = TorrentNames.check([TorrentFile(path: "t/.a", size: 1), TorrentFile(path: "t/a", size: 1)])
        do {
            _ = try twice.get()
            Issue.record("two files at one path were let through")
        } catch {
            #expect(error.message.contains("two of its files would be saved as 't/a'"))
            #expect(error.code == .torrentParse)
        }
    }

    @Test("100,000 files are read and checked, contained in one folder")
    func manyFiles() throws {
        let many = (0..<100_000).map { (["d\($0 % 100)", "f\($0)"], 1) }
        let files = try Self.files(HostileTorrent.make(name: "many", files: many))
        #expect(files.count == 100_000)
        let names = try TorrentNames.check(files).get()
        #expect(names.top == "many" && names.renamed.isEmpty)
    }

    @Test("a piece length past libtorrent's limit, and nesting past its depth, are refused with its reason")
    func pastLimits() {
        let huge = HostileTorrent.single(name: "big", length: 10, pieceLength: 1 << 30)
        #expect(throws: TorrentError.self) { try TorrentMetainfo(bytes: huge) }
        let deep = Array(repeating: UInt8(ascii: "l"), count: 200) + Array(repeating: UInt8(ascii: "e"), count: 200)
        #expect(throws: TorrentError.self) { try TorrentMetainfo(bytes: deep) }
    }

    @Test("a link where the torrent's folder goes is refused: haul does not write through it")
    func linkInTheWay() throws {
        let folder = try ScratchDirectory.make("torrent-link")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/evil", withDestinationPath: "/etc")
        let names = TorrentNames(renamed: [:], top: "evil")
        #expect(names.linkRefusal(in: folder.path)?.message.contains("is a symbolic link") == true)
        #expect(TorrentNames(renamed: [:], top: "other").linkRefusal(in: folder.path) == nil)
    }
}
