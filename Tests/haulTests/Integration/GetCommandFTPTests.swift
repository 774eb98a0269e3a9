import Foundation
import HaulTestSupport
import Testing

/// `haul get` over FTP and FTPS against a real FTP server (pyftpdlib, from `.build/venv`):
/// sizes from `SIZE`, splitting and resume with `REST`, a missing file, logins, `.netrc`,
/// active mode, and explicit TLS.
@Suite("haul get over FTP", .serialized, .enabled(if: TestVenv.python != nil || Aria2pTools.required))
struct GetCommandFTPTests {
    /// A scratch directory with a served folder `root` holding `name` of `size` pattern bytes.
    static func served(_ name: String, size: Int) throws -> (directory: URL, root: URL) {
        let directory = try HaulProcess.scratch()
        let root = directory.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(TestPattern.bytes(count: size)).write(to: root.appendingPathComponent(name))
        return (directory, root)
    }

    @Test("anonymous and logged in; the size comes from SIZE; haul get says FTP; a missing file is 550")
    func downloads() async throws {
        let (directory, root) = try Self.served("three.bin", size: 3_000_000)
        defer { HaulProcess.cleanUp(directory) }
        let server = try FTPServer(root: root)
        let run = try await HaulProcess.run(
            ["get", server.url("three.bin"), server.url("three.bin", login: true), "-d", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/three.bin"), size: 3_000_000))
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/three.1.bin"), size: 3_000_000))
        #expect(run.stderr.contains("over FTP"), "\(run.stderr)")
        #expect(server.log.contains("USER anonymous") && server.log.contains("USER 'haul' logged in"))
        #expect(server.log.contains("<- SIZE three.bin"))
        #expect(!run.stderr.contains("secret"))

        let missing = try await HaulProcess.run(["get", server.url("nothing.bin"), "-d", "out"], in: directory)
        #expect(missing.status == 3, "\(missing.stderr)")
        let refused = try await HaulProcess.run(
            ["get", "ftp://haul:wrong@127.0.0.1:\(server.port)/three.bin", "-d", "refused", "--max-tries=1"],
            in: directory)
        #expect(refused.status == 24, "\(refused.stderr)")
        // aria2's --ftp-user and --ftp-passwd log in; the password is never shown.
        let options = try await HaulProcess.run(
            ["get", server.url("three.bin"), "--ftp-user", "haul", "--ftp-passwd", "secret", "-d", "options"],
            in: directory)
        #expect(options.status == 0, "\(options.stderr)")
        #expect(server.log.components(separatedBy: "USER 'haul' logged in").count == 3, "\(server.log)")
    }

    @Test("a SIZE that is not a size (213 -5, then 5,000 bytes and 226) fails the download; nothing is saved")
    func lyingSize() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let root = directory.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(TestPattern.bytes(count: 5000)).write(to: root.appendingPathComponent("f.bin"))
        for reply in ["-5", "5 bytes", "0x10"] {
            let server = try FTPServer(root: root, sizeReply: reply)
            let run = try await HaulProcess.run(
                ["get", "ftp://127.0.0.1:\(server.port)/f.bin", "--max-tries", "1", "-d", "out"], in: directory)
            #expect(run.status != 0, "\(reply): \(run.stderr)")
            #expect(run.stderr.contains("answered SIZE with '\(reply)'"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/f.bin").path))
        }
    }

    @Test(".netrc logs in to an FTP host; --ftp-pasv=false uses active mode")
    func netrcAndActive() async throws {
        let (directory, root) = try Self.served("one.bin", size: 1_000_000)
        defer { HaulProcess.cleanUp(directory) }
        let server = try FTPServer(root: root)
        let netrc = directory.appendingPathComponent("netrc")
        try "machine 127.0.0.1 login haul password secret\n".write(to: netrc, atomically: true, encoding: .utf8)
        chmod(netrc.path, 0o600)
        let run = try await HaulProcess.run(
            ["get", server.url("one.bin"), "--netrc-path", netrc.path, "--ftp-pasv=false", "-d", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/one.bin"), size: 1_000_000))
        #expect(server.log.contains("USER 'haul' logged in"), "\(server.log)")
        #expect(server.log.contains("<- EPRT") || server.log.contains("<- PORT"), "\(server.log)")
        #expect(!server.log.contains("<- PASV") && !server.log.contains("<- EPSV"))
    }

    @Test("a large file is split over several connections, each starting with REST")
    func split() async throws {
        let size = 12_000_000
        let (directory, root) = try Self.served("big.bin", size: size)
        defer { HaulProcess.cleanUp(directory) }
        // Each connection capped (as links cap them), so the helpers start before the first
        // connection could fetch it all alone.
        let server = try FTPServer(root: root, rate: 4_000_000)
        let run = try await HaulProcess.run(
            ["get", server.url("big.bin"), "-x4", "-s4", "-k1M", "-d", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/big.bin"), size: size))
        let offsets = Set(server.log.split(separator: "\n").filter { $0.contains("<- REST ") })
        #expect(offsets.count >= 2, "\(server.log)")
        // The helpers' answers (a range with no length, as FTP gives) kept the split.
        #expect(!run.stderr.contains("retrying"), "\(run.stderr)")
    }

    @Test("killed mid-download and run again, the file continues with REST and ends whole")
    func resume() async throws {
        let size = 9_500_000
        let (directory, root) = try Self.served("resume.bin", size: size)
        defer { HaulProcess.cleanUp(directory) }
        let server = try FTPServer(root: root, rate: 3_000_000)
        let arguments = ["get", server.url("resume.bin"), "-d", "out", "--checkpoint-interval", "0.2"]
        let partial = directory.appendingPathComponent("out/resume.bin.part")
        try await HaulProcess.killed(arguments, in: directory, once: partial, holds: 2_000_000)
        let run = try await HaulProcess.run(arguments, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/resume.bin"), size: size))
        let rests = server.log.split(separator: "\n").filter { $0.contains("<- REST ") && !$0.hasSuffix("REST 0") }
        #expect(!rests.isEmpty, "\(server.log)")
    }

    @Test("ftps:// is explicit TLS (AUTH TLS), its certificate verified; an unverified one is refused")
    func explicitTLS() async throws {
        let (directory, root) = try Self.served("secure.bin", size: 500_000)
        defer { HaulProcess.cleanUp(directory) }
        try NginxServer.makeCertificates(in: directory)
        let server = try FTPServer(
            root: root, tls: (directory.path + "/server.pem", directory.path + "/server.key"))
        let url = "ftps://127.0.0.1:\(server.port)/secure.bin"
        let run = try await HaulProcess.run(
            ["get", url, "--ca-certificate", directory.path + "/ca.pem", "-d", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/secure.bin"), size: 500_000))
        // libcurl asks AUTH SSL first (pyftpdlib takes it); the data connection is private too.
        #expect(server.log.contains("<- AUTH ") && server.log.contains("<- PROT P"), "\(server.log)")
        #expect(run.stderr.contains("over FTPS"), "\(run.stderr)")
        let untrusted = try await HaulProcess.run(["get", url, "-d", "other", "--max-tries=1"], in: directory)
        #expect(untrusted.status != 0 && untrusted.stderr.contains("certificate"), "\(untrusted.stderr)")
    }
}
