import CFiles
import Foundation

// MARK: - FileSink

/// A download's file, written from the engine thread through a bounded buffer: libcurl hands
/// over at most 16 KiB a callback, so bytes are gathered and written with one positioned write
/// per `capacity` (or per `flushInterval`, so a slow transfer still shows progress).
final class FileSink {
    static let capacity = 512 * 1024
    /// The smallest buffer: a body of known length below it gets a buffer of its own size, not
    /// half a megabyte to fill 16 KiB.
    static let smallestCapacity = 64 * 1024
    static let flushInterval: UInt64 = 100_000_000  // nanoseconds

    /// The file's path (for an unnamed file, its directory until it is named).
    private(set) var path: String
    private var descriptor: Int32
    /// While the file has no name: how it gets one.
    private var unnamed: UnnamedFile?
    /// File offset of the first buffered byte.
    private var offset: Int64
    /// Where writing stops (see `DownloadTarget.end`).
    private(set) var end: Int64?
    /// Whether bytes past the body's end are left alone: a resumed segment's, and a new file
    /// with no name, which has none.
    private let keepsTail: Bool
    private let capacity: Int
    /// Where the body ends, when its length is known: its last bytes, with nothing buffered
    /// before them, are written from libcurl's buffer rather than copied first (a small file's
    /// whole body is one callback).
    private let expectedEnd: Int64?
    /// Made when bytes are first gathered: a body that arrives in one piece (a small file's)
    /// goes from libcurl's buffer to the file and never needs one.
    private var buffer: UnsafeMutableRawBufferPointer?
    private var buffered = 0
    /// When bytes were last written; 0 before the first write of a body longer than the buffer,
    /// whose first bytes are then written (and reported) at once: how soon they come is what an
    /// automatic split measures a connection by.
    private var lastFlush: UInt64

    /// Opens `target.path` (creating it, mode 0644, unless it `mustExist`). It is not truncated
    /// here: ext4 flushes a file truncated on open and rewritten when it is closed, which stalls
    /// a fast download; `finish` cuts the file at the body's end instead. A symbolic link or
    /// anything but a regular file at the path (put there by someone else between runs) is
    /// refused, never written through.
    /// A body of `expectedLength` below `capacity` gets a buffer of its own size (at least
    /// `smallestCapacity`).
    init(target: DownloadTarget, url: URL?, expectedLength: Int64 = -1) throws(ConnectionError) {
        capacity =
            expectedLength > 0 && expectedLength < Int64(FileSink.capacity)
            ? max(FileSink.smallestCapacity, Int(expectedLength)) : FileSink.capacity
        lastFlush = expectedLength > Int64(FileSink.capacity) ? 0 : MonotonicClock.nanoseconds()
        path = target.path
        offset = target.offset
        expectedEnd = expectedLength > 0 ? target.offset + expectedLength : nil
        end = target.end
        keepsTail = target.keepsTail || target.unnamed != nil
        unnamed = target.unnamed
        if let unnamed = target.unnamed {
            descriptor = UnnamedFilePool.shared.take(in: unnamed.directory)
        } else {
            let flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (target.mustExist ? 0 : O_CREAT)
            descriptor = open(target.path, flags, 0o644)
        }
        guard descriptor >= 0 else {
            let error = errno
            throw ConnectionError(
                kind: .fileWrite, url: url, systemError: error,
                detail: error == ELOOP
                    ? "\(target.path) is a symbolic link; not written through" : target.path)
        }
        // A file with no name is a new regular file; a named one is looked at.
        var status = stat()
        guard target.unnamed != nil || (fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG) else {
            throw ConnectionError(
                kind: .fileWrite, url: url, systemError: EINVAL,
                detail: "\(target.path) is not a regular file")
        }
    }

    deinit {
        close()
        buffer?.deallocate()
    }

    // MARK: - Writing

    /// Bytes that may still be taken before `end` (nil: no end).
    var room: Int64? {
        end.map { max(0, $0 - offset - Int64(buffered)) }
    }

    /// Whether the body has reached `end`: nothing more is taken.
    var reachedEnd: Bool {
        end.map { offset + Int64(buffered) >= $0 } ?? false
    }

    /// Moves `end` earlier (never later); buffered bytes past it are dropped.
    func limit(to newEnd: Int64) {
        let limited = min(end ?? newEnd, newEnd)
        end = limited
        buffered = max(0, min(buffered, Int(limited - offset)))
    }

    /// Takes `bytes` (up to `end`); returns how many bytes reached the file by this call (0
    /// while buffering).
    func write(_ bytes: UnsafeRawBufferPointer, url: URL?) throws(ConnectionError) -> Int64 {
        var bytes = bytes
        if let room, room < Int64(bytes.count) { bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(room)]) }
        var written: Int64 = 0
        if buffered + bytes.count > capacity {
            written += try flush(url: url)
        }
        if bytes.count >= capacity || (buffered == 0 && offset + Int64(bytes.count) == expectedEnd) {
            try writeAll(bytes, url: url)
            written += Int64(bytes.count)
        } else {
            let buffer = self.buffer ?? makeBuffer()
            UnsafeMutableRawBufferPointer(rebasing: buffer[buffered..<(buffered + bytes.count)]).copyMemory(from: bytes)
            buffered += bytes.count
            if buffered == capacity || MonotonicClock.nanoseconds() - lastFlush >= FileSink.flushInterval {
                written += try flush(url: url)
            }
        }
        if let unnamed, let limit = unnamed.spillAfter, let spill = unnamed.spill, offset + Int64(buffered) > limit {
            // Too long to fetch again after a crash: named now, it goes on as a resumable file.
            written += try flush(url: url)
            path = try spill(descriptor)
            self.unnamed = nil
        }
        return written
    }

    /// Writes the buffered bytes; returns how many.
    @discardableResult
    func flush(url: URL?) throws(ConnectionError) -> Int64 {
        lastFlush = MonotonicClock.nanoseconds()
        guard buffered > 0, let buffer else { return 0 }
        let count = buffered
        buffered = 0
        try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), url: url)
        return Int64(count)
    }

    /// Flushes, drops anything an older file had past the body's end (unless `keepsTail`), and
    /// closes the file,
    /// reporting a failure the file system kept until now. Returns the bytes the final flush wrote.
    func finish(url: URL?) throws(ConnectionError) -> Int64 {
        let written = try flush(url: url)
        if let unnamed {
            // Complete: now it gets its name (before the close, which would free it).
            path = try unnamed.name(descriptor)
            self.unnamed = nil
        }
        var status = stat()
        if !keepsTail, fstat(descriptor, &status) == 0, Int64(status.st_size) > offset,
            ftruncate(descriptor, off_t(offset)) != 0
        {
            throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: path)
        }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: path) }
        return written
    }

    /// Keeps what was received (best effort) and closes the file; a file with no name is
    /// freed.
    func close() {
        if descriptor >= 0 {
            _ = try? flush(url: nil)
            _ = Glibc.close(descriptor)
        }
        descriptor = -1
    }

    // MARK: - Pieces

    private func makeBuffer() -> UnsafeMutableRawBufferPointer {
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 4096)
        buffer = made
        return made
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, url: URL?) throws(ConnectionError) {
        guard PosixFile.writeAll(bytes, to: descriptor, at: offset) else {
            throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: path)
        }
        offset += Int64(bytes.count)
    }
}
