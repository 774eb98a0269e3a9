import HaulCore

// MARK: - SSHArguments

/// How SFTP logs in and knows its servers.
struct SSHArguments {
    var privateKey: String?
    var knownHosts: String?
    var hostKeyDigest: SSHHostKeyDigest?

    static let options: [OptionSpec<SSHArguments>] = [
        .value("ssh-private-key", "file", help: "Log in to SFTP servers with this private key (OpenSSH's format).") {
            $0.privateKey = $1
        },
        .value(
            "ssh-known-hosts", "file",
            help: "The SFTP servers' host keys, OpenSSH's format (default ~/.ssh/known_hosts); an unknown key is "
                + "refused."
        ) { $0.knownHosts = $1 },
        .value(
            "ssh-host-key-md", "type=digest",
            help: "Pin the SFTP server's host key by its digest instead (aria2's: sha-256=HEX, or md5=HEX)."
        ) { $0.hostKeyDigest = try OptionValue.download("ssh-host-key-md", $1, \.sshHostKeyMD) },
    ]
}
