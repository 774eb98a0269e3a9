import Foundation

// MARK: - PosixFile

/// Whole writes to a file descriptor, for the files haul writes in one go (a saved session, a
/// cache entry); a download's body goes through `FileSink` instead.
public enum PosixFile {
    /// Writes all of `bytes` to `descriptor`, retrying after signals. False when the file took
    /// only part of them: errno says why (ENOSPC when a write took nothing).
    public static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, base + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    if count == 0 { errno = ENOSPC }
                    return false
                }
                offset += count
            }
            return true
        }
    }
}
