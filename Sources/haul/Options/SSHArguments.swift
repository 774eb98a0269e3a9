import ArgumentParser
import HaulCore

// MARK: - SSHArguments

/// How SFTP logs in and knows its servers.
struct SSHArguments: ParsableArguments {
    @Option(
        name: .customLong("ssh-private-key"),
        help: ArgumentHelp("Log in to SFTP servers with this private key (OpenSSH's format).", valueName: "file"))
    var privateKey: String?

    @Option(
        name: .customLong("ssh-known-hosts"),
        help: ArgumentHelp(
            "The SFTP servers' host keys, OpenSSH's format (default ~/.ssh/known_hosts); an unknown key is refused.",
            valueName: "file"))
    var knownHosts: String?

    @Option(
        name: .customLong("ssh-host-key-md"),
        help: ArgumentHelp(
            "Pin the SFTP server's host key by its digest instead (aria2's: sha-256=HEX, or md5=HEX).",
            valueName: "type=digest"),
        transform: OptionValue.of("ssh-host-key-md", \.sshHostKeyMD))
    var hostKeyDigest: SSHHostKeyDigest?
}
