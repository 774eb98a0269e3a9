import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

// MARK: - NameGateTests

/// The one gate for names others chose: a server's become one plain file name; a network
/// client's folders are made below their root without passing through a link, as the file is
/// opened.
@Suite("Name gate")
struct NameGateTests {
    @Test(
        "a server's name is one plain file name",
        arguments: [
            (".bash_profile", "bash_profile"), (".ssh/authorized_keys", "ssh_authorized_keys"),
            ("music/x", "music_x"), ("../../etc/passwd", "_.._etc_passwd"), ("plain.iso", "plain.iso"),
            ("a\u{1B}[2Jb", "ab"), ("notes.txt.aria2", "notes.txt_aria2"), ("movie.mkv.PART", "movie.mkv_PART"),
            (".aria2", "aria2"), ("x.part.iso", "x.part.iso"),
        ])
    func serverNames(name: String, expected: String) {
        #expect(NameGate.serverName(name) == expected)
        #expect(NameGate.isPlainName(expected))
    }

    @Test("a client's folders are made below the root; a link, a dotted part or a path outside is refused")
    func clientFolders() throws {
        let root = try ScratchDirectory.make("name-gate")
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = try ScratchDirectory.make("name-gate-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: outside)
        let base = root.path
        #expect(NameGate.openFolder(base + "/a/b", named: "f.bin", below: base) == nil)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: base + "/a/b", isDirectory: &isFolder) && isFolder.boolValue)
        #expect(NameGate.openFolder(base + "/link/deeper", named: "f", below: base)?.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing made through it")
        #expect(NameGate.openFolder(base + "/.ssh", named: "keys", below: base)?.contains("not a plain name") == true)
        #expect(NameGate.openFolder(base, named: ".bashrc", below: base)?.contains("not a plain name") == true)
        #expect(NameGate.openFolder(base + "/../x", named: "f", below: base)?.contains("outside") == true)
        #expect(NameGate.openFolder("/etc", named: "passwd", below: base)?.contains("outside") == true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("a/b/g.bin"), withDestinationURL: outside.appendingPathComponent("g"))
        #expect(NameGate.openFolder(base + "/a/b", named: "g.bin", below: base)?.contains("symbolic link") == true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("a/b/h.bin.part"), withDestinationURL: outside.appendingPathComponent("h"))
        #expect(NameGate.openFolder(base + "/a/b", named: "h.bin", below: base)?.contains("symbolic link") == true)
        // A file where a folder is wanted is not a folder.
        try Data().write(to: root.appendingPathComponent("file"))
        #expect(NameGate.openFolder(base + "/file/x", named: nil, below: base) != nil)
    }

    @Test("the root a download's names stay below is kept by the store, and no option or queue file sets it")
    func rootKept() throws {
        var options = DownloadOptions()
        options.nameRoot = "/srv/dl"
        try options.set("out", "a.bin")
        let text = DownloadStore.text(of: options)
        #expect(text.contains("haul-name-root=/srv/dl"))
        #expect(!options.pairs(includingSecrets: true).contains { $0.0.contains("root") })
        var fromFile = DownloadOptions()
        #expect(throws: OptionError.self) { try fromFile.set("haul-name-root", "/") }
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DownloadStore(path: directory.appendingPathComponent("haul.sqlite").path)
        try store.write(.init(upserts: [Download(uris: ["http://h/a"], options: options)]))
        #expect(try store.load().downloads.first?.options.nameRoot == "/srv/dl")
        let list = try InputFile.read(
            Array("http://h/a\n  haul-name-root=/\n".utf8), name: "list", origin: .remoteList)
        #expect(list.entries.first?.options.nameRoot == nil)
    }
}
