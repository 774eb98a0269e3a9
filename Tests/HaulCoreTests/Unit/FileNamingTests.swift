import Foundation
import Testing

@testable import HaulCore
@testable import HaulNet

@Suite("File naming")
struct FileNamingTests {
    @Test(
        "hostile names stay one safe component",
        arguments: [
            ("../../etc/passwd", "_.._etc_passwd"),
            ("..", nil),
            ("/", "_"),
            ("evil\u{1B}[31mred\u{1B}[0m.txt", "evilred.txt"),
            ("title\u{1B}]0;pwned\u{07}.bin", "title.bin"),
            ("nul\u{0}byte.txt", "nulbyte.txt"),
            ("bidi\u{202E}txt.exe", "biditxt.exe"),
            ("  spaced  ", "spaced"),
            ("データ.zip", "データ.zip"),
        ] as [(String, String?)])
    func sanitize(input: String, expected: String?) {
        #expect(FileNaming.sanitize(input) == expected)
    }

    @Test("a 300-byte name is cut to the limit and keeps its extension")
    func longName() throws {
        let name = String(repeating: "長", count: 100) + ".tar.gz"  // 300 bytes of CJK + extension
        let result = try #require(FileNaming.sanitize(name))
        #expect(result.utf8.count <= FileNaming.maximumNameBytes)
        #expect(result.hasSuffix(".tar.gz"))
        #expect(result.hasPrefix("長長"))
    }

    @Test("the name comes from Content-Disposition, then the URL, then index.html")
    func nameOrder() {
        let url = URL(string: "http://h.test/files/a%20b.iso")!
        #expect(
            FileNaming.name(
                for: Response(
                    url: url, statusCode: 200,
                    headers: ["Content-Disposition": "attachment; filename=\"../x.iso\""])) == "_x.iso")
        #expect(FileNaming.name(for: Response(url: url, statusCode: 200)) == "a b.iso")
        #expect(FileNaming.name(for: Response(url: URL(string: "http://h.test/")!, statusCode: 200)) == "index.html")
    }

    @Test("a name read off the URL's text is the one the parsed URL gives")
    func plainSegmentAsParsed() throws {
        let uris = [
            "http://h.test/dir/file.iso?x=1#f", "http://h.test/dir/", "http://h.test/a;b", "http://u:p@h.test/x.bin",
            "https://h.test:8443/a/b/c.tar.gz", "http://h.test/a%2Fb", "http://h.test/.hidden", "http://h.test/a/..",
            "http://h.test", "http://h.test/?q=/x", "ftp://h.test/pub/file", "http://h.test/a\\b",
        ]
        for uri in uris {
            let url = try #require(URL(string: uri))
            let response = Response(url: url, statusCode: 200)
            let last = url.lastPathComponent
            let parsed =
                (last.isEmpty || last == "/" ? nil : last).flatMap(FileNaming.sanitize) ?? FileNaming.fallbackName
            #expect(FileNaming.name(for: response) == parsed, "\(uri)")
        }
    }

    @Test("collisions become name.1.ext, name.2.ext, counting partial files too")
    func collisions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-naming-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            FileNaming.uniqueDestination(for: "f.tar.gz", in: directory, allowOverwrite: false) == directory
                + "/f.tar.gz")
        #expect(FileManager.default.createFile(atPath: directory + "/f.tar.gz", contents: nil))
        #expect(FileManager.default.createFile(atPath: directory + "/f.1.tar.gz.part", contents: nil))
        #expect(
            FileNaming.uniqueDestination(for: "f.tar.gz", in: directory, allowOverwrite: false) == directory
                + "/f.2.tar.gz")
        #expect(
            FileNaming.uniqueDestination(for: "f.tar.gz", in: directory, allowOverwrite: true) == directory
                + "/f.tar.gz")
    }

    @Test(
        "a path's folder and name are NSString's, read off its bytes",
        arguments: [
            "/srv/files/a.iso", "/a", "files/sub/n.bin", "/srv/files/dir/", "/x/relative/", "//a",
            "/srv/fi\u{e9}les/\u{1F600}.txt",
        ])
    func folderAndName(path: String) {
        let split = FileNaming.folderAndName(of: path)
        #expect(split.folder == (path as NSString).deletingLastPathComponent, "\(path)")
        #expect(split.name == (path as NSString).lastPathComponent, "\(path)")
    }

    @Test("a bare name has no folder (where NSString traps), and a doubled slash is kept")
    func folderAndNameEdges() {
        #expect(FileNaming.folderAndName(of: "a.iso") == ("", "a.iso"))
        #expect(FileNaming.folderAndName(of: "/srv//files/a") == ("/srv//files", "a"))
    }
}

@Suite("Expected names")
struct ExpectedNameTests {
    @Test("the name read off a URI's text is the one its parsed URL gives")
    func fromText() throws {
        let uris = [
            "http://127.0.0.1:1/f1", "https://example.com/a/b/file.tar.gz?x=1#y", "http://h/dir/",
            "http://h", "http://h/", "http://h/a%20b.txt", "http://h/a;b", "http://h/..", "http://h/.hidden",
            "ftp://user:pw@h/pub/x.iso", "http://h/x?y/z", "http://h#a/b", "http://[::1]:8080/v6.bin", "http://h/a\\b",
            "http://h/caf%C3%A9.txt", "http://h/a b",
        ]
        for uri in uris {
            let url = try #require(URL(string: uri))
            #expect(
                FileNaming.expectedName(out: nil, uri: uri) == FileNaming.expectedName(out: nil, url: url), "\(uri)")
        }
        #expect(FileNaming.expectedName(out: "given.bin", uri: "http://h/f") == "given.bin")
    }
}

@Suite("Text and sizes")
struct TextAndSizeTests {
    @Test("controls are made visible for screens, and whole escape sequences dropped for names")
    func visible() {
        #expect(TextSanitizer.visible("a\u{1B}[2Jb\tc\u{7F}") == "a^[[2Jb^Ic^?")
        #expect(TextSanitizer.visible("\u{9B}31mx") == "\\u{9b}31mx")
        #expect(TextSanitizer.stripped("a\u{1B}[2Jb\u{1B}]0;title\u{07}c") == "abc")
        #expect(TextSanitizer.visible("ok ✓ 日本") == "ok ✓ 日本")
    }

    @Test("sizes parse with K, M, G suffixes and reject the rest")
    func parse() throws {
        #expect(try ByteCount.parse("512") == 512)
        #expect(try ByteCount.parse("64K") == 65536)
        #expect(try ByteCount.parse("1.5M") == 1_572_864)
        #expect(try ByteCount.parse("2g") == 2_147_483_648)
        #expect(throws: ByteCount.ParseError.self) { try ByteCount.parse("12Q") }
        #expect(throws: ByteCount.ParseError.self) { try ByteCount.parse("-1") }
        #expect(ByteCount.format(1536) == "1.5 KiB")
        #expect(ByteCount.format(10) == "10 B")
        // Never `1024.0 KiB`: the next unit takes over where rounding would reach 1024.
        #expect(ByteCount.format(1023 * 1024 + 614) == "1023.6 KiB")
        #expect(ByteCount.format(1_048_575) == "1.0 MiB")
        #expect(ByteCount.format(1023) == "1023 B")
    }
}
