import Foundation

// MARK: - PosixFile

/// Whole writes to a file descriptor: the files haul writes in one go (a saved session, a cache
/// entry), and each of the writes `FileSink` gathers a download's body into; and the
/// directories they go in.
public enum PosixFile {
    /// Makes `path` and each missing directory above it (made with `mode`, less the umask), as
    /// `mkdir -p` does. Nil when `path` is a directory at the end; else which directory could
    /// not be made and why, in the system's words: `/srv/x: Not a directory` (Foundation's
    /// error for this says only "NSCocoaErrorDomain error 512").
    ///
    /// - Parameters:
    ///   - path: The directory to make; relative to the working directory unless it starts with `/`.
    ///   - mode: The permissions of each directory made; the umask still applies.
    /// - Returns: nil on success, else why: the reason alone when `path` itself could not be made,
    ///   else `dir: reason` for the directory above it that could not be (so that a message
    ///   naming `path` never names it twice).
    public static func makeDirectories(_ path: String, mode: mode_t = 0o777) -> String? {
        // As mkdir(""): no directory is named.
        guard !path.isEmpty else { return "'': \(String(cString: strerror(ENOENT)))" }
        var made = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            made += component
            if mkdir(made, mode) != 0 {
                let error = errno
                var status = stat()
                guard error == EEXIST, stat(made, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    let reason = String(cString: strerror(error == EEXIST ? ENOTDIR : error))
                    let whole = made.count == path.count || path.dropFirst(made.count).allSatisfy { $0 == "/" }
                    return whole ? reason : "\(made): \(reason)"
                }
            }
            made += "/"
        }
        return nil
    }

    /// Creates a new file with a name no one can predict beside `path` (`path.tmp-XXXXXX`, by
    /// `mkstemp`: created with O_EXCL, so never an existing file or a link someone planted) and
    /// gives it `mode`. Returns its descriptor and path, or nil with errno set.
    ///
    /// - Parameters:
    ///   - path: The file the temporary one will replace; the new file goes in its directory.
    ///   - mode: The new file's permissions (0600 for secrets), set with `fchmod`, so the umask
    ///     does not change them.
    /// - Returns: The open descriptor and the new file's path, or nil (errno says why).
    public static func createTemporary(beside path: String, mode: mode_t) -> (descriptor: Int32, path: String)? {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fchmod(descriptor, mode) == 0 else {
            let error = errno
            close(descriptor)
            unlink(temporary)
            errno = error
            return nil
        }
        return (descriptor, temporary)
    }

    /// Replaces `path` atomically: `write` fills a new file beside it (`createTemporary`, with
    /// `mode`), which is synced and renamed over `path`; on any failure the new file goes and
    /// `path` is as it was.
    ///
    /// - Parameters:
    ///   - path: The file to write.
    ///   - mode: Its permissions (0600 for what holds secrets or a user's uploads).
    ///   - write: Writes the content to the descriptor it is given; false when a write failed
    ///     (errno saying why).
    /// - Returns: Why it failed (`strerror`'s text), or nil.
    public static func replace(_ path: String, mode: mode_t, writing write: (Int32) -> Bool) -> String? {
        guard let (descriptor, temporary) = createTemporary(beside: path, mode: mode) else {
            return String(cString: strerror(errno))
        }
        let synced = write(descriptor) && fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// Writes all of `bytes` to `descriptor`, retrying after signals. False when the file took
    /// only part of them: errno says why (ENOSPC when a write took nothing).
    ///
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - descriptor: An open file descriptor, written at its current offset.
    /// - Returns: True when every byte was written.
    public static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            writeAll(buffer) { base, count, _ in write(descriptor, base, count) }
        }
    }

    /// Writes all of `bytes` at `offset` of `descriptor` (positioned writes), as `writeAll`.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int64) -> Bool {
        writeAll(bytes) { base, count, done in pwrite(descriptor, base, count, off_t(offset + Int64(done))) }
    }

    /// Calls `write` (the bytes' next part, its length, how many were written before it) until
    /// every byte is written, again after a signal; false on a failure or a write that took
    /// nothing (errno ENOSPC).
    private static func writeAll(
        _ bytes: UnsafeRawBufferPointer, with write: (UnsafeRawPointer, Int, Int) -> Int
    ) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = write(base + done, bytes.count - done, done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { errno = ENOSPC }
                return false
            }
            done += count
        }
        return true
    }
}
