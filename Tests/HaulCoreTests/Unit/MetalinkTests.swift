import Foundation
import Testing

@testable import HaulCore

/// Metalink 4 documents read as a hostile server may write them, and turned into queue entries.
@Suite("Metalink")
struct MetalinkTests {
    private static let sha256 = String(repeating: "ab", count: 32)
    private static let sha1 = String(repeating: "cd", count: 20)

    private static func document(_ files: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <generator>test</generator>
            \(files)
            </metalink>
            """.utf8)
    }

    @Test("files with their size, strongest hash, pieces and mirrors; mirrors by priority, then location")
    func reads() throws {
        let data = Self.document(
            """
            <file name="dir/img.iso">
              <size>600000</size>
              <hash type="md5">\(String(repeating: "0", count: 32))</hash>
              <hash type="sha-256">\(Self.sha256)</hash>
              <pieces length="262144" type="sha-1">
                <hash>\(Self.sha1)</hash><hash>\(Self.sha1)</hash><hash>\(Self.sha1)</hash>
              </pieces>
              <url location="us" priority="2">https://us.example/img.iso</url>
              <url location="de" priority="2">https://de.example/img.iso</url>
              <url priority="1">ftp://fast.example/img.iso</url>
              <url>https://last.example/img.iso</url>
              <metaurl mediatype="torrent">https://example/img.torrent</metaurl>
            </file>
            <file name="b.txt"><url>http://example/b.txt</url></file>
            """)
        let result = try MetalinkParser.parse(data, source: "m.meta4")
        let files = result.metalink.files
        #expect(files.map(\.name) == ["dir/img.iso", "b.txt"])
        #expect(files[0].size == 600_000 && files[0].hash?.description == "sha-256=\(Self.sha256)")
        #expect(files[0].pieces?.hashes.count == 3 && files[0].pieces?.length == 262_144)
        #expect(result.problems.count == 1 && result.problems[0].contains("<metaurl>"), "\(result.problems)")
        let entries = result.metalink.entries(preferring: ["de"], fromServer: false)
        #expect(
            entries[0].uris.map { $0 } == [
                "ftp://fast.example/img.iso", "https://de.example/img.iso", "https://us.example/img.iso",
                "https://last.example/img.iso",
            ])
        #expect(entries[0].options.out == "dir/img.iso" && entries[0].options.checksum?.algorithm == .sha256)
        #expect(entries[0].options.pieceHashes?.hashes.count == 3)
        #expect(
            result.metalink.entries(fromServer: false).first?.uris.dropFirst().first == "https://us.example/img.iso")
    }

    @Test(
        "a hostile file is left out, saying why: a path out of the directory, a scheme haul does not load, a bad size",
        arguments: [
            ("<file name=\"../../.bashrc\"><url>http://e/x</url></file>", "must be a name inside"),
            ("<file name=\"/etc/passwd\"><url>http://e/x</url></file>", "must be a name inside"),
            ("<file name=\"a&#10;b\"><url>http://e/x</url></file>", "control character"),
            ("<file name=\"x\"><url>file:///etc/passwd</url></file>", "has no URL haul can load"),
            ("<file name=\"x\"><size>-1</size><url>http://e/x</url></file>", "is not a size"),
        ])
    func hostileFiles(file: String, problem: String) throws {
        let data = Self.document(file + "<file name=\"good\"><url>http://e/good</url></file>")
        let result = try MetalinkParser.parse(data, source: "m.meta4")
        #expect(result.metalink.files.map(\.name) == ["good"])
        #expect(result.problems.contains { $0.contains(problem) && $0.hasPrefix("m.meta4:") }, "\(result.problems)")
    }

    @Test("a problem past line 65535 names its own line (a Metalink of many files)")
    func farLine() throws {
        let blank = String(repeating: "<x/>\n", count: 70_000)
        let good = "<file name=\"good\"><url>http://e/good</url></file>"
        let data = Self.document(good + blank + "<file name=\"../x\"><url>http://e/x</url></file>")
        let result = try MetalinkParser.parse(data, source: "m.meta4")
        #expect(
            result.problems.count == 1 && result.problems.first?.hasPrefix("m.meta4:70004:") == true,
            "\(result.problems)")
    }

    @Test(
        "a document that is not Metalink 4, declares entities, or is too large is refused whole",
        arguments: [
            (
                "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>"
                    + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"&b;\"/></metalink>",
                "may not declare a DOCTYPE or entities"
            ),
            ("<metalink version=\"3.0\" xmlns=\"http://www.metalinker.org/\"/>", "Metalink 3 is not read"),
            ("<?x?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"/>", "may not hold processing instructions"),
            ("<html><body>not found</body></html>", "is not a Metalink"),
            ("{\"json\": true}", "not a Metalink document"),
            ("", "bad.meta4: not a Metalink document (it is empty)"),
            (
                "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n<file name=\"a\">\n</fil>",
                "bad.meta4:3: not a Metalink document (Opening and ending tag mismatch"
            ),
            ("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">&b;</metalink>", "Entity 'b' not defined"),
            ("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"></metalink>", "names no file"),
        ])
    func refused(text: String, message: String) {
        #expect {
            try MetalinkParser.parse(Data(text.utf8), source: "bad.meta4")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a document that is not UTF-8 is refused before it is parsed")
    func notUTF8() {
        // Found by the fuzzer: an element named by bytes that are not UTF-8.
        var data = Data("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><".utf8)
        data.append(contentsOf: [0xDD, 0xDD, 0xDD, 0xDD])
        data.append(contentsOf: Data("/><url>http://e/a</url></file></metalink>".utf8))
        #expect {
            try MetalinkParser.parse(data, source: "bytes.meta4")
        } throws: { error in
            "\(error)".contains("must be UTF-8")
        }
    }

    @Test("a document over the size limit is refused before it is parsed")
    func tooLarge() {
        let data = Data(count: Metalink.sizeLimit + 1)
        #expect(throws: MetalinkParser.Failure.self) { try MetalinkParser.parse(data, source: "big.meta4") }
    }

    @Test("piece hashes read and written as an option; they must cover the file")
    func pieceHashes() throws {
        let pieces = try PieceHashes(parsing: "sha-1:1048576:\(Self.sha1),\(Self.sha1.uppercased())")
        #expect(pieces.description == "sha-1:1048576:\(Self.sha1),\(Self.sha1)")
        #expect(pieces.fit(2_000_000) && !pieces.fit(3_000_000) && !pieces.fit(1_000_000))
        #expect(throws: OptionError.self) { try PieceHashes(parsing: "sha-1:0:\(Self.sha1)") }
        #expect(throws: OptionError.self) { try PieceHashes(parsing: "sha-1:10:abc") }
        var options = DownloadOptions()
        try options.set("piece-hashes", pieces.description)
        #expect(options.pairs(includingSecrets: false).contains { $0.0 == "piece-hashes" })
    }

    @Test("a range taken out of held ranges leaves what is around it")
    func removeRange() {
        var ranges = ByteRanges([0..<100, 200..<300])
        ranges.remove(50..<250)
        #expect(ranges == ByteRanges([0..<50, 250..<300]))
        ranges.remove(0..<50)
        #expect(ranges == ByteRanges([250..<300]))
        ranges.remove(400..<500)
        #expect(ranges == ByteRanges([250..<300]))
    }

    @Test("a file's pieces are hashed one by one; the bad one is named by its range")
    func badPieces() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metalink-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f").path
        var bytes = [UInt8](repeating: 7, count: 2500)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let good = try Checksum.digests(ofFileAt: path, algorithm: .sha1, pieceLength: 1000)
        #expect(good.count == 3)
        bytes[1500] = 8
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let pieces = try PieceHashes(algorithm: .sha1, length: 1000, hashes: good)
        #expect(try pieces.badPieces(ofFileAt: path, total: 2500) == [1000..<2000])
    }

    @Test("a Metalink is named by .meta4 or .metalink before any query, in any case; a path is a local one")
    func names() {
        let table: [(text: String, isMetalink: Bool, isLocal: Bool)] = [
            ("rel.meta4", true, true),
            ("REL.META4", true, true),
            ("~/x.Metalink", true, true),
            ("https://h/rel.meta4?download=1", true, false),
            ("https://h/rel.meta4x", false, false),
            ("https://h/rel.iso?f=.meta4", false, false),
            ("meta4", false, false),
            (".meta4", true, true),
            ("x.meta\u{14}", false, false),
            ("x.méta4", false, false),
        ]
        for row in table {
            #expect(Metalink.isMetalinkName(row.text) == row.isMetalink, "\(row.text)")
            #expect(Metalink.isLocalMetalink(row.text) == row.isLocal, "\(row.text)")
        }
    }
}
