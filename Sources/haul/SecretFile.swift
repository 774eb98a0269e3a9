import Foundation
import HaulNet

// MARK: - SecretFile

/// The daemon's secret kept in a file (`--rpc-secret-file`), so that a service starts it
/// without a secret on its command line, where `ps` shows it to every user. The file holds the
/// secret on its first line and must be this user's alone (mode 0600, like ssh's keys); a file
/// that is not there is made, with a new random secret, as the service's first start needs.
enum SecretFile {
    /// Why the secret cannot be read from the file: what is wrong and what to do.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The longest file read: a secret is a line, not a document.
    static let maximumSize = 4096

    /// The secret in the file at `path`, made first when there is no file and `makingIt` (the
    /// daemon's; a client reads one that is there); `report` is told when a new one is made, and
    /// where.
    static func secret(at path: String, makingIt: Bool = true, report: (String) -> Void) throws(Problem) -> String {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            guard error == ENOENT, makingIt else {
                throw Problem(description: "--rpc-secret-file \(path): \(reason(error))")
            }
            return try make(at: path, report: report)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Problem(description: "--rpc-secret-file \(path) is not a regular file")
        }
        guard status.st_uid == getuid() else {
            throw Problem(description: "--rpc-secret-file \(path) belongs to another user: it must be yours alone")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw Problem(
                description: "--rpc-secret-file \(path) may be read by others (mode \(mode)): run chmod 600 '\(path)'")
        }
        guard status.st_size <= maximumSize else {
            throw Problem(description: "--rpc-secret-file \(path) is over \(maximumSize) bytes: a secret is one line")
        }
        var bytes = [UInt8](repeating: 0, count: maximumSize)
        let count = read(descriptor, &bytes, bytes.count)
        guard count >= 0 else { throw Problem(description: "--rpc-secret-file \(path): \(reason(errno))") }
        let line = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n").first ?? ""
        let secret = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else {
            throw Problem(description: "--rpc-secret-file \(path) holds no secret: write one on its first line")
        }
        return secret
    }

    /// Makes the file at `path` (and its directory, mode 0700) with a new random secret.
    private static func make(at path: String, report: (String) -> Void) throws(Problem) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, let failure = PosixFile.makeDirectories(directory, mode: 0o700) {
            throw Problem(description: "--rpc-secret-file \(path): cannot create \(directory): \(failure)")
        }
        let secret = newSecret()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Problem(description: "--rpc-secret-file \(path): \(reason(errno))") }
        defer { close(descriptor) }
        let line = Array((secret + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
            let error = errno
            unlink(path)
            throw Problem(description: "--rpc-secret-file \(path): \(reason(error))")
        }
        report("made a new secret in \(path) (mode 0600): give it to your clients (AriaNg, aria2p, haul --connect)")
        return secret
    }

    /// 24 random bytes as URL-safe base64: 32 characters a client's settings page takes as typed.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    private static func reason(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
