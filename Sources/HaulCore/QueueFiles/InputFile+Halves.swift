import Foundation
import Synchronization

// MARK: - Halves

extension InputFile {
    /// A long queue file read as two halves at once, split where an entry starts: parsing a
    /// million entries is a quarter of queueing them, and the second core is idle until the
    /// queue starts. The result is the one reading the file whole gives: entries in file order,
    /// the second half's entries and problems numbered on from the first half's lines.
    struct Halves {
        /// The shortest file read in halves.
        static let shortest: Int64 = 8 << 20

        private let descriptor: Int32
        private let split: Int64
        private let size: Int64

        /// The halves of the regular, uncompressed file open as `descriptor`, of at most `limit`
        /// bytes; nil for a file shorter than `shortest`, compressed, not regular, too long
        /// (reading it whole says so), or with no entry starting after its middle.
        init?(of descriptor: Int32, limit: Int64, shortest: Int64 = Halves.shortest) {
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            let size = Int64(status.st_size)
            guard size >= shortest, size <= limit, !Halves.isCompressed(descriptor),
                let split = Halves.entryStart(in: descriptor, from: size / 2, before: size)
            else { return nil }
            (self.descriptor, self.split, self.size) = (descriptor, split, size)
        }

        /// Both halves read at once, then joined.
        func read(name: String, limit: Int64) throws(FileError) -> ReadResult {
            let ranges = [0..<split, split..<size]
            let results = Mutex<[Result<(ReadResult, Int), FileError>?]>([nil, nil])
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let result = Result { () throws(FileError) in
                    var reader = InputFileReader(name: name, origin: .queueFile, limit: limit)
                    try feed(&reader, from: ranges[half], name: name)
                    let read = try reader.finish()
                    return (read, reader.lines)
                }
                results.withLock { $0[half] = result }
            }
            let (first, second) = results.withLock { ($0[0], $0[1]) }
            guard let first, let second else { throw FileError(description: "queue file '\(name)' was not read") }
            var (joined, lines) = try first.get()
            var (rest, _) = try second.get()
            for index in rest.entries.indices { rest.entries[index].line += lines }
            joined.entries += rest.entries
            joined.problems += rest.problems.map { problem in
                var numbered = problem
                numbered.line += lines
                return numbered
            }
            return joined
        }

        /// Feeds `range` of the file to `reader`, a megabyte at a time.
        private func feed(
            _ reader: inout InputFileReader, from range: Range<Int64>, name: String
        )
            throws(FileError)
        {
            var failure: FileError?
            let end = Halves.chunks(of: descriptor, from: range.lowerBound, to: range.upperBound, size: 1 << 20) {
                bytes, _ in
                do throws(FileError) {
                    try reader.feed(contentsOf: bytes)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            guard end == range.upperBound else {
                let reason = end < 0 ? String(cString: strerror(errno)) : "it ended early"
                throw FileError(description: "queue file '\(name)' cannot be read: \(reason)")
            }
        }

        /// Hands `body` the bytes of `descriptor` from `start` to `end`, `size` at a time, with
        /// each piece's offset, until `body` says to stop. Returns the offset reached (short of
        /// `end` when the file ended early), or -1 when a read failed (`errno` says why).
        private static func chunks(
            of descriptor: Int32, from start: Int64, to end: Int64, size: Int,
            _ body: (ArraySlice<UInt8>, _ offset: Int64) -> Bool
        ) -> Int64 {
            var buffer = [UInt8](repeating: 0, count: size)
            var offset = start
            while offset < end {
                let wanted = Int(min(Int64(size), end - offset))
                let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
                guard count > 0 else { return count < 0 ? -1 : offset }
                guard body(buffer[0..<count], offset) else { return offset }
                offset += Int64(count)
            }
            return offset
        }

        /// Whether the file starts as gzip does.
        private static func isCompressed(_ descriptor: Int32) -> Bool {
            var head = [UInt8](repeating: 0, count: 2)
            let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 2, 0) }
            return count == 2 && Gzip.isCompressed(head)
        }

        /// The offset of the first line at or after `from` (and before `end`) that starts an
        /// entry: one following a line end and beginning with neither a blank, a `#`, nor a line
        /// end (an option line belongs to the entry above it).
        private static func entryStart(in descriptor: Int32, from: Int64, before end: Int64) -> Int64? {
            var found: Int64?
            var afterNewline = false
            // From the byte before `from`, to know whether `from` starts a line.
            _ = chunks(of: descriptor, from: from - 1, to: end, size: 64 << 10) { bytes, offset in
                for (index, byte) in zip(bytes.indices, bytes) {
                    if afterNewline, ![0x20, 0x09, 0x23, 0x0A, 0x0D].contains(byte) {
                        found = offset + Int64(index)
                        return false
                    }
                    afterNewline = byte == 0x0A
                }
                return true
            }
            return found
        }
    }
}
