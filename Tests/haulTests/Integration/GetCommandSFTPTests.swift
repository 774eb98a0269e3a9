import Foundation
import HaulTestSupport
import Testing

/// `haul get` over SFTP against OpenSSH's sshd on a loopback port, with keys made at test time:
/// key login, the host key checked against a known-hosts file or a pinned digest, an unknown
/// one refused, and resume after `kill -9`.
@Suite(
    "haul get over SFTP", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") || Aria2pTools.required))
struct GetCommandSFTPTests {
    static func file(size: Int, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("served.bin")
        try Data(TestPattern.bytes(count: size)).write(to: file)
        return file
    }

    @Test("the user's own key logs in by default; a network client's download does not get it; files are 0600")
    func ownIdentity() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try SSHServer(in: directory)
        let served = try Self.file(size: 100_000, in: directory)
        chmod(served.path, 0o600)
        // A home whose default key (~/.ssh/id_rsa, as libcurl looks for it) the server takes.
        let home = directory.appendingPathComponent("home")
        let ssh = home.appendingPathComponent(".ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: server.userKey, toPath: ssh.appendingPathComponent("id_rsa").path)
        try FileManager.default.copyItem(
            atPath: server.knownHosts, toPath: ssh.appendingPathComponent("known_hosts").path)
        let environment = ["HOME": home.path]
        let run = try await HaulProcess.run(
            ["get", server.url(served.path), "-d", "mine", "--max-tries", "1"], in: directory,
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let mine = directory.appendingPathComponent("mine/served.bin").path
        #expect(HaulProcess.isWhole(URL(fileURLWithPath: mine), size: 100_000))
        let mode = (try FileManager.default.attributesOfItem(atPath: mine)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")

        let daemon = try await DaemonProcess.start(in: directory, environment: environment)
        defer { daemon.stop() }
        let add = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.addUri\",\"params\":[[\"\(server.url(served.path))\"],"
                + "{\"max-tries\":\"1\"}]}")
        #expect(add.body.contains("\"result\""), "\(add)")
        for _ in 0..<200 where !daemon.stderr.contains("failed") {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(daemon.stderr.contains("refused the login"), "\(daemon.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/served.bin").path))
    }

    @Test("a key logs in; the host key is checked against known_hosts; haul get says SFTP")
    func keyLogin() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try SSHServer(in: directory)
        let served = try Self.file(size: 2_000_000, in: directory)
        let run = try await HaulProcess.run(
            [
                "get", server.url(served.path), "--ssh-private-key", server.userKey, "--ssh-known-hosts",
                server.knownHosts, "-d", "out",
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/served.bin"), size: 2_000_000))
        #expect(run.stderr.contains("over SFTP"), "\(run.stderr)")
    }

    @Test(
        "a password logs in a user made for the test; a wrong one is refused by name; neither is shown",
        .enabled(if: SSHServer.PasswordUser.canMake))
    func passwordLogin() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try SSHServer(in: directory, passwords: true)
        let user = try SSHServer.PasswordUser()
        let served = try Self.file(size: 1_500_000, in: directory)
        // The user reads the served file: its folders let others through.
        chmod(directory.path, 0o755)
        chmod(served.path, 0o644)
        let known = ["--ssh-known-hosts", server.knownHosts, "--max-tries=1"]
        let run = try await HaulProcess.run(
            ["get", server.url(served.path, user: user.name, password: user.password), "-d", "out"] + known,
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/served.bin"), size: 1_500_000))
        #expect(!run.stderr.contains(user.password))
        let wrong = try await HaulProcess.run(
            ["get", server.url(served.path, user: user.name, password: "not-\(user.password)"), "-d", "w"] + known,
            in: directory)
        #expect(wrong.status == 24, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains(user.password), "\(wrong.stderr)")
    }

    @Test("an unknown host key is refused, saying how to trust it; a pinned digest is trusted instead")
    func hostKeys() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try SSHServer(in: directory)
        let served = try Self.file(size: 100_000, in: directory)
        let empty = directory.appendingPathComponent("no_hosts")
        try Data().write(to: empty)
        let key = ["--ssh-private-key", server.userKey]
        let unknown = try await HaulProcess.run(
            ["get", server.url(served.path), "--ssh-known-hosts", empty.path, "-d", "a", "--max-tries=1"] + key,
            in: directory)
        #expect(unknown.status == 1, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("host key is not one known") && unknown.stderr.contains("ssh-keyscan"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("a/served.bin").path))

        let sha256 = try server.fingerprint("sha256")
        let md5 = try server.fingerprint("md5").replacingOccurrences(of: "MD5:", with: "")
        for (digest, folder) in [("sha-256=\(sha256)", "b"), ("md5=\(md5)", "c")] {
            let pinned = try await HaulProcess.run(
                [
                    "get", server.url(served.path), "--ssh-known-hosts", empty.path, "--ssh-host-key-md=\(digest)",
                    "-d", folder,
                ] + key, in: directory)
            #expect(pinned.status == 0, "\(digest): \(pinned.stderr)")
            #expect(HaulProcess.isWhole(directory.appendingPathComponent("\(folder)/served.bin"), size: 100_000))
        }
        let wrong = try await HaulProcess.run(
            [
                "get", server.url(served.path), "--ssh-host-key-md=md5=\(String(repeating: "0", count: 32))",
                "-d", "d", "--max-tries=1",
            ] + key, in: directory)
        #expect(wrong.status == 1, "\(wrong.stderr)")
        let sha1 = try await HaulProcess.run(
            ["get", server.url(served.path), "--ssh-host-key-md=sha-1=\(String(repeating: "0", count: 40))"],
            in: directory)
        #expect(sha1.status == 28 && sha1.stderr.contains("sha-256"), "\(sha1.stderr)")
    }

    @Test("killed mid-download and run again, the file continues and ends whole")
    func resume() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let server = try SSHServer(in: directory)
        let size = 9_500_000
        let served = try Self.file(size: size, in: directory)
        let arguments = [
            "get", server.url(served.path), "--ssh-private-key", server.userKey, "--ssh-known-hosts",
            server.knownHosts, "-d", "out", "--checkpoint-interval", "0.2",
        ]
        // haul's own cap keeps the first run short of the end.
        let partial = directory.appendingPathComponent("out/served.bin.part")
        try await HaulProcess.killed(
            arguments + ["--max-download-limit", "3M"], in: directory, once: partial, holds: 2_000_000)
        let kept = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
        #expect(kept > 2_000_000 && kept < size)
        let run = try await HaulProcess.run(arguments, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("continuing 1 download"), "\(run.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/served.bin"), size: size))
    }
}
