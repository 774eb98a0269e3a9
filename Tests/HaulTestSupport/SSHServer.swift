import Foundation

// MARK: - SSHServer

/// OpenSSH's `sshd` on 127.0.0.1 at a free port, for SFTP tests: a host key and a user key made
/// by `ssh-keygen` at start (`directory/host_key`, `directory/user_key`), the user key the only
/// way in (as root, the user the tests run as), and `directory/known_hosts` naming the host key.
/// Needs the openssh-server package (`make test` installs it). Stopped on deinit.
public final class SSHServer: Sendable {
    public let port: Int
    public let directory: URL
    /// sshd, started with posix_spawn: under Foundation's Process, the exits of the test's other
    /// children (haul) went unnoticed while sshd ran, and waiting for them never ended.
    private let pid: pid_t

    public var userKey: String { directory.path + "/user_key" }
    public var knownHosts: String { directory.path + "/known_hosts" }
    public var hostPublicKey: String { directory.path + "/host_key.pub" }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// With `passwords`, users may log in with a password too (`PasswordUser`).
    public init(in directory: URL, passwords: Bool = false) throws {
        self.directory = directory
        let path = directory.path
        for key in ["host_key", "user_key"] {
            try SSHServer.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", "\(path)/\(key)"])
        }
        try FileManager.default.copyItem(atPath: "\(path)/user_key.pub", toPath: "\(path)/authorized_keys")
        port = try LoopbackPort.free()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(path)/host_key
            PidFile \(path)/sshd.pid
            AuthorizedKeysFile \(path)/authorized_keys
            PermitRootLogin prohibit-password
            PasswordAuthentication \(passwords ? "yes" : "no")
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            Subsystem sftp internal-sftp

            """
        try config.write(toFile: "\(path)/sshd_config", atomically: true, encoding: .utf8)
        let hostKey = try String(contentsOfFile: "\(path)/host_key.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(port) \(hostKey)\n".write(toFile: "\(path)/known_hosts", atomically: true, encoding: .utf8)
        // sshd's privilege separation wants this directory.
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        pid = try SSHServer.spawn(["/usr/sbin/sshd", "-D", "-e", "-f", "\(path)/sshd_config"])
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline, kill(pid, 0) == 0 else {
                throw SetupError(description: "sshd did not start on 127.0.0.1:\(port) (is openssh-server installed?)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
    }

    /// Starts `arguments` with its output and errors to /dev/null.
    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let strings = arguments.map { strdup($0) }
        defer { for string in strings { free(string) } }
        var argv = strings + [nil]
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
            throw SetupError(description: "\(arguments[0]) could not be started")
        }
        return pid
    }

    /// `sftp://root@127.0.0.1:PORT/ABSOLUTE-PATH`.
    public func url(_ path: String) -> String {
        "sftp://root@127.0.0.1:\(port)\(path)"
    }

    /// A user made for one test, who logs in with a random password and has no shell and no home;
    /// deleted on deinit. Needs root (useradd, usermod, userdel) and openssl.
    public final class PasswordUser: Sendable {
        public let name: String
        public let password: String

        /// Whether this machine lets a test make one: run as root, with the tools there.
        public static var canMake: Bool {
            getuid() == 0
                && ["/usr/sbin/useradd", "/usr/sbin/usermod", "/usr/sbin/userdel", "/usr/bin/openssl"].allSatisfy {
                    FileManager.default.isExecutableFile(atPath: $0)
                }
        }

        public init() throws {
            let suffix = UUID().uuidString.prefix(8).lowercased()
            name = "haulsftp\(suffix)"
            password = UUID().uuidString.replacing("-", with: "")
            try SSHServer.run("/usr/sbin/useradd", ["-M", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", name])
            let hash = try SSHServer.run("/usr/bin/openssl", ["passwd", "-6", password])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try SSHServer.run("/usr/sbin/usermod", ["-p", hash, name])
        }

        deinit {
            _ = try? SSHServer.run("/usr/sbin/userdel", [name])
        }
    }

    /// `path` on this server as `user` with `password`.
    public func url(_ path: String, user: String, password: String) -> String {
        "sftp://\(user):\(password)@127.0.0.1:\(port)\(path)"
    }

    /// The host key's fingerprint as `ssh-keygen -l -E HASH` prints it (`SHA256:…`, `MD5:…`).
    public func fingerprint(_ hash: String) throws -> String {
        let output = try SSHServer.run("/usr/bin/ssh-keygen", ["-l", "-E", hash, "-f", hostPublicKey])
        return output.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw SetupError(description: "\(tool) is not installed; run `make test`, which installs openssh-server")
        }
        let (status, text) = try ToolOutput.run(tool, arguments)
        guard status == 0 else {
            throw SetupError(description: "\(tool) \(arguments.joined(separator: " ")) failed")
        }
        return text
    }
}
