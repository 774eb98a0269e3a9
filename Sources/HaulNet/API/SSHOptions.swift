import Foundation

// MARK: - SSHOptions

/// How an SFTP load logs in and checks the server's host key. The host key is always checked:
/// against `knownHosts` (OpenSSH's format; `~/.ssh/known_hosts` when nil), or against a digest
/// the user gave (`hostKeyMD5`, `hostKeySHA256`), which then stands alone.
public struct SSHOptions: Sendable, Equatable {
    /// The private key to log in with (its public half is derived from it).
    public var privateKey: String?
    public var knownHosts: String?
    /// The host key's MD5, 32 hex digits.
    public var hostKeyMD5: String?
    /// The host key's SHA-256, base64 as OpenSSH prints it (without `=` padding).
    public var hostKeySHA256: String?
    /// Whether, without `privateKey`, the login may use this user's own keys (libcurl's default
    /// key files) and SSH agent: not for a download a network client added, which would log in
    /// as this user wherever the client points it.
    public var mayUseOwnIdentity = true

    /// How to log in and which host key to trust.
    ///
    /// - Parameters:
    ///   - privateKey: The private key file to log in with, or nil.
    ///   - knownHosts: An OpenSSH known-hosts file; `~/.ssh/known_hosts` when nil.
    ///   - hostKeyMD5: The host key's MD5 in hex; with it the known-hosts file is not read.
    ///   - hostKeySHA256: The host key's SHA-256 in base64; with it the known-hosts file is not read.
    public init(
        privateKey: String? = nil, knownHosts: String? = nil, hostKeyMD5: String? = nil, hostKeySHA256: String? = nil
    ) {
        self.privateKey = privateKey
        self.knownHosts = knownHosts
        self.hostKeyMD5 = hostKeyMD5
        self.hostKeySHA256 = hostKeySHA256
    }

    /// `~/.ssh/known_hosts`.
    public static var defaultKnownHosts: String {
        (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.ssh/known_hosts"
    }
}
