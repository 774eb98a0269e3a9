import Foundation
import HaulNet

// MARK: - SSHHostKeyDigest

/// aria2's `ssh-host-key-md=TYPE=DIGEST`: the SFTP server's host key, pinned by its digest, so
/// the known-hosts file is not asked. `sha-256` (64 hex digits as aria2 writes it, or OpenSSH's
/// base64, with or without `SHA256:`) and `md5` (32 hex digits, colons allowed); libcurl cannot
/// check aria2's `sha-1`, so that is refused with the way around.
public enum SSHHostKeyDigest: Sendable, Equatable, CustomStringConvertible {
    case md5(hex: String)
    case sha256(base64: String)

    public init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw OptionError("'\(TextSanitizer.visible(text))' is not TYPE=DIGEST") }
        let digest = parts[1].replacingOccurrences(of: ":", with: "")
        switch parts[0].lowercased() {
        case "md5":
            guard digest.count == 32, digest.allSatisfy(\.isHexDigit) else {
                throw OptionError("an md5 host key digest is 32 hex digits")
            }
            self = .md5(hex: digest.lowercased())
        case "sha-256", "sha256":
            if let bytes = SSHHostKeyDigest.bytes(hex: digest), bytes.count == 32 {
                self = .sha256(base64: Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: ""))
                return
            }
            let base64 = parts[1].hasPrefix("SHA256:") ? String(parts[1].dropFirst(7)) : parts[1]
            let padded = base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard Data(base64Encoded: padded)?.count == 32 else {
                throw OptionError("a sha-256 host key digest is 64 hex digits, or OpenSSH's base64 (SHA256:…)")
            }
            self = .sha256(base64: base64.replacingOccurrences(of: "=", with: ""))
        case "sha-1", "sha1":
            throw OptionError(
                "sha-1 host key digests cannot be checked here; give sha-256=… (ssh-keygen -lf prints it)")
        default:
            throw OptionError("'\(TextSanitizer.visible(parts[0]))' is not md5 or sha-256")
        }
    }

    /// As the option is written back (a session file).
    public var description: String {
        switch self {
        case .md5(let hex): "md5=\(hex)"
        case .sha256(let base64): "sha-256=\(base64)"
        }
    }

    /// Pins `ssh`'s host key to this digest.
    func pin(_ ssh: inout SSHOptions) {
        switch self {
        case .md5(let hex): ssh.hostKeyMD5 = hex
        case .sha256(let base64): ssh.hostKeySHA256 = base64
        }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        guard hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
