import Foundation

// MARK: - FileSink

/// A download's file, written with positioned writes from the engine thread.
final class FileSink {
    let path: String
    private var descriptor: Int32
    private var offset: Int64

    /// Opens (creating it, mode 0644) `target.path`; an offset of 0 truncates the file.
    init(target: DownloadTarget, url: URL?) throws(ConnectionError) {
        path = target.path
        offset = target.offset
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (target.offset == 0 ? O_TRUNC : 0)
        descriptor = open(target.path, flags, 0o644)
        guard descriptor >= 0 else {
            throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: target.path)
        }
    }

    deinit { close() }

    /// Writes all of `bytes` at the current offset.
    func write(_ bytes: UnsafeRawBufferPointer, url: URL?) throws(ConnectionError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let result = pwrite(descriptor, base + done, bytes.count - done, off_t(offset))
            if result < 0 {
                if errno == EINTR { continue }
                throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: path)
            }
            done += result
            offset += Int64(result)
        }
    }

    /// Closes the file, reporting a failure the file system kept until now.
    func finish(url: URL?) throws(ConnectionError) {
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: path) }
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }
}
