import Foundation
import HaulTestSupport
import Testing

/// `haul get` with Metalink 4 documents: a file on disk (`-M`, or a path as a URL), one served
/// by nginx over HTTPS, and a mirror that sends a bad piece, caught by its piece hash and
/// fetched again from the next mirror.
@Suite("haul get with Metalink")
struct GetCommandMetalinkTests {
    private static let size = 1_000_000
    private static let pieceLength = 262_144

    /// The pattern's whole sha-256 and its sha-1 piece hashes, made by coreutils.
    private static func digests(
        in directory: URL, size: Int = size, pieceLength: Int = pieceLength
    ) throws -> (whole: String, pieces: [String]) {
        try Data(TestPattern.bytes(count: size)).write(to: directory.appendingPathComponent("pattern"))
        let whole = try HaulProcess.shell("sha256sum pattern | cut -c1-64", in: directory)
        let pieces = try HaulProcess.shell(
            "split -b \(pieceLength) -d pattern piece. && for p in piece.*; do sha1sum $p | cut -c1-40; done; "
                + "rm -f piece.* pattern", in: directory)
        return (whole, pieces.split(separator: "\n").map(String.init))
    }

    /// A scratch directory, the pattern's digests, and nginx serving the pattern as `payload.bin`.
    private static func servedPayload() throws -> (URL, whole: String, pieces: [String], NginxServer) {
        let directory = try HaulProcess.scratch()
        let (whole, pieces) = try digests(in: directory)
        return (directory, whole, pieces, try NginxServer.start(files: ["payload.bin": TestPattern.bytes(count: size)]))
    }

    /// `text` with its ampersands escaped for XML.
    private static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;")
    }

    private static func metalink(
        name: String, whole: String, pieces: [String], urls: [(String, Int)], size: Int = size,
        pieceLength: Int = pieceLength
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="\(name)">
            <size>\(size)</size>
            <hash type="sha-256">\(whole)</hash>
            <pieces length="\(pieceLength)" type="sha-1">
              \(pieces.map { "<hash>\($0)</hash>" }.joined())
            </pieces>
            \(urls.map { "<url priority=\"\($0.1)\">\(escaped($0.0))</url>" }.joined(separator: "\n    "))
          </file>
        </metalink>
        """
    }

    @Test("a mirror that sends a bad piece: the piece is caught by its hash and fetched again from the next mirror")
    func corruptMirror() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try FaultServer.shared()
        let (whole, pieces) = try Self.digests(in: directory)
        #expect(pieces.count == 4)
        let (bad, good) = (UUID().uuidString, UUID().uuidString)
        let document = Self.metalink(
            name: "data/file.bin", whole: whole, pieces: pieces,
            urls: [
                (server.url("/file/\(Self.size)?key=\(bad)&corrupt=300000").absoluteString, 1),
                (server.url("/file/\(Self.size)?key=\(good)").absoluteString, 2),
            ])
        try document.write(to: directory.appendingPathComponent("f.meta4"), atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(
            ["get", "-M", "f.meta4", "-d", "out", "--retry-wait=0", "--resumable-above=0"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/data/file.bin"), size: Self.size))
        #expect(run.stderr.contains("1 of 4 pieces failed their sha-1 digest"), "\(run.stderr)")
        // The bad mirror sent the whole file; the good one only what follows the last good piece.
        #expect(server.fileRequests.requests(for: bad).count == 1)
        let again = server.fileRequests.requests(for: good)
        #expect(again.count == 1 && again.first?.range == "bytes=\(Self.pieceLength)-", "\(again)")
    }

    /// A file of `size` bytes split over two mirrors of the fault server, a bad one (priority
    /// 1, `/file` with `bad`'s query) and a good one (`good`'s), downloaded with `arguments` in a
    /// scratch directory: the run, the file, and the bad mirror's key.
    private static func splitOverMirrors(
        size: Int, pieceLength: Int, bad badQuery: String, good goodQuery: String, _ arguments: [String]
    ) async throws -> (run: HaulProcess.Run, file: URL, badKey: String, directory: URL) {
        let directory = try HaulProcess.scratch()
        let server = try FaultServer.shared()
        let (whole, pieces) = try Self.digests(in: directory, size: size, pieceLength: pieceLength)
        let (bad, good) = (UUID().uuidString, UUID().uuidString)
        let document = Self.metalink(
            name: "split.bin", whole: whole, pieces: pieces,
            urls: [
                (server.url("/file/\(size)?key=\(bad)&\(badQuery)").absoluteString, 1),
                (server.url("/file/\(size)?key=\(good)&\(goodQuery)").absoluteString, 2),
            ], size: size, pieceLength: pieceLength)
        try document.write(to: directory.appendingPathComponent("s.meta4"), atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(
            ["get", "-M", "s.meta4", "-d", "out", "--retry-wait=0"] + arguments, in: directory)
        return (run, directory.appendingPathComponent("out/split.bin"), bad, directory)
    }

    @Test(
        "split over mirrors, a bad piece is caught as its segment ends: its mirror is dropped, the piece fetched again")
    func corruptMirrorWhileSplit() async throws {
        // The bad mirror is fast, the good one slow: the bad segments end while the good run.
        let size = 8_000_000
        let (run, file, _, directory) = try await Self.splitOverMirrors(
            size: size, pieceLength: 1_048_576, bad: "corrupt=5000000", good: "pace=65536", ["-x2", "-s4", "-k1M"])
        defer { HaulProcess.cleanUp(directory) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(file, size: size))
        #expect(run.stderr.contains("failed the Metalink's hash"), "\(run.stderr)")
        #expect(!run.stderr.contains("retrying"), "recovered within the attempt: \(run.stderr)")
    }

    @Test("a first mirror with many bad pieces is dropped for good: the download ends whole from the other")
    func manyBadPieces() async throws {
        // A byte flipped every 4 MiB on the priority-1 mirror: 16 bad pieces of 64.
        let size = 67_108_864
        let (run, file, bad, directory) = try await Self.splitOverMirrors(
            size: size, pieceLength: 1_048_576, bad: "corruptEvery=4194304", good: "", ["-x4", "-s4", "-k1M"])
        defer { HaulProcess.cleanUp(directory) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(file, size: size))
        #expect(run.stderr.contains("failed the Metalink's hash"), "\(run.stderr)")
        // Dropped once for the whole download: a later attempt does not go back to it (the core's
        // table test shows its URI taken off the download).
        #expect(run.stderr.components(separatedBy: "failed the Metalink's hash").count == 2, "\(run.stderr)")
        #expect(try FaultServer.shared().fileRequests.requests(for: bad).count >= 1)
    }

    @Test("a Metalink named by its path, or served over HTTPS by nginx, downloads its files from their mirrors")
    func pathAndURL() async throws {
        let (directory, whole, pieces, nginx) = try Self.servedPayload()
        defer { HaulProcess.cleanUp(directory) }
        defer { nginx.stop() }
        let document = Self.metalink(
            name: "p.bin", whole: whole, pieces: pieces,
            urls: [("http://127.0.0.1:9/refused.bin", 1), (nginx.url("/payload.bin").absoluteString, 2)])
        try Data(document.utf8).write(to: nginx.root.appendingPathComponent("p.meta4"))
        try document.write(to: directory.appendingPathComponent("local.meta4"), atomically: true, encoding: .utf8)
        let local = try await HaulProcess.run(
            ["get", "local.meta4", "-d", "a", "--ca-certificate", nginx.caFile, "--retry-wait=0"], in: directory)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("a/p.bin"), size: Self.size))
        let remote = try await HaulProcess.run(
            [
                "get", nginx.url("/p.meta4").absoluteString, "-d", "b", "--ca-certificate", nginx.caFile,
                "--retry-wait=0",
            ], in: directory)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("b/p.bin"), size: Self.size))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b/p.meta4").path))
    }

    @Test("an answer that is a Metalink is followed: its files are downloaded, and a bad one fails the run")
    func follow() async throws {
        let (directory, whole, pieces, nginx) = try Self.servedPayload()
        defer { HaulProcess.cleanUp(directory) }
        defer { nginx.stop() }
        let document = Self.metalink(
            name: "followed.bin", whole: whole, pieces: pieces, urls: [(nginx.url("/payload.bin").absoluteString, 1)])
        try FileManager.default.createDirectory(
            at: nginx.root.appendingPathComponent("metalink"), withIntermediateDirectories: true)
        try Data(document.utf8).write(to: nginx.root.appendingPathComponent("metalink/latest"))
        try Data("<html>no</html>".utf8).write(to: nginx.root.appendingPathComponent("metalink/broken"))
        let tls = ["--ca-certificate", nginx.caFile]
        let run = try await HaulProcess.run(
            ["get", nginx.url("/metalink/latest").absoluteString, "-d", "out"] + tls, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/followed.bin"), size: Self.size))
        #expect(run.stderr.contains("2 downloads: 2 saved"), "\(run.stderr)")
        let kept = try await HaulProcess.run(
            ["get", nginx.url("/metalink/latest").absoluteString, "-d", "kept", "--follow-metalink=false"] + tls,
            in: directory)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("kept/followed.bin").path))
        let broken = try await HaulProcess.run(
            ["get", nginx.url("/metalink/broken").absoluteString, "-d", "broken"] + tls, in: directory)
        #expect(broken.status == 20, "aria2's code for a Metalink it cannot read: \(broken.stderr)")
        #expect(broken.stderr.contains("is not a Metalink"), "\(broken.stderr)")
    }

    @Test("a Metalink a server sends names plain files only: no dotfile, no folder, nothing through a link")
    func serverNamesStayPlain() async throws {
        let nginx = try NginxServer.start(files: ["payload.bin": TestPattern.bytes(count: 1000)])
        defer { nginx.stop() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let home = directory.appendingPathComponent("home")
        let outside = directory.appendingPathComponent("outside")
        for folder in [home, outside] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            at: home.appendingPathComponent("music"), withDestinationURL: outside)
        let names = [".bash_profile", ".ssh/authorized_keys", ".config/autostart/evil.desktop", "music/x", "bin/ls"]
        let payload = nginx.url("/payload.bin").absoluteString
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
            \(names.map { "<file name=\"\($0)\"><url>\(payload)</url></file>" }.joined(separator: "\n"))
            </metalink>
            """
        try FileManager.default.createDirectory(
            at: nginx.root.appendingPathComponent("metalink"), withIntermediateDirectories: true)
        try Data(document.utf8).write(to: nginx.root.appendingPathComponent("metalink/release.iso"))
        let followed = nginx.url("/metalink/release.iso").absoluteString
        let run = try await HaulProcess.run(["get", followed, "--ca-certificate", nginx.caFile], in: home)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()
        #expect(
            saved == [
                "bash_profile", "bin_ls", "config_autostart_evil.desktop", "music", "music_x", "release.iso",
                "ssh_authorized_keys",
            ], "\(saved)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        // The same document named by its URL (not followed, read first) names the same files.
        let named = directory.appendingPathComponent("named")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        try Data(document.utf8).write(to: nginx.root.appendingPathComponent("list.meta4"))
        let byURL = try await HaulProcess.run(
            ["get", nginx.url("/list.meta4").absoluteString, "--ca-certificate", nginx.caFile], in: named)
        #expect(byURL.status == 0, "\(byURL.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: named.path).sorted() == [
                "bash_profile", "bin_ls", "config_autostart_evil.desktop", "music_x", "ssh_authorized_keys",
            ])
    }

    @Test("a hostile Metalink: a name out of the directory is left out, an entity declaration refuses it whole")
    func hostile() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let escape = """
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
            <file name="../escaped.bin"><url>http://127.0.0.1:9/x</url></file>
            </metalink>
            """
        try escape.write(to: directory.appendingPathComponent("e.meta4"), atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(["get", "-M", "e.meta4", "-d", "out"], in: directory)
        #expect(run.status != 0)
        #expect(run.stderr.contains("e.meta4:2:") && run.stderr.contains("must be a name inside"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("escaped.bin").path))
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY a \"a\">]><metalink/>"
        try bomb.write(to: directory.appendingPathComponent("b.meta4"), atomically: true, encoding: .utf8)
        let refused = try await HaulProcess.run(["get", "b.meta4"], in: directory)
        #expect(refused.status != 0 && refused.stderr.contains("may not declare a DOCTYPE"), "\(refused.stderr)")
        let missing = try await HaulProcess.run(["get", "-M", "missing.meta4"], in: directory)
        #expect(missing.status == 28, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("'missing.meta4' cannot be read: No such file or directory"), "\(missing.stderr)")
    }
}
