import CZlib

// MARK: - Gzip

/// Recognises gzip data and inflates it a piece at a time (queue files may be
/// gzip-compressed), so a large or hostile file is never inflated in full before it is read.
public enum Gzip {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// True when `bytes` start with the gzip magic number.
    static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    /// A gzip stream inflated as its compressed bytes arrive; concatenated members
    /// (`cat a.gz b.gz`) continue one after another.
    final class Inflater {
        private var stream = z_stream()
        private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        private var atStreamEnd = false

        init() throws(Error) {
            guard haul_inflate_init_gzip(&stream) == Z_OK else { throw Error(description: "zlib could not start") }
        }

        deinit {
            inflateEnd(&stream)
        }

        /// Inflates `input`, handing each inflated piece (at most 64 KiB) to `output`, which
        /// answers false to stop (then this returns false too).
        func inflate(_ input: UnsafeRawBufferPointer, output: (ArraySlice<UInt8>) -> Bool) throws(Error) -> Bool {
            guard let base = input.baseAddress, !input.isEmpty else { return true }
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            while stream.avail_in > 0 || !atStreamEnd {
                if atStreamEnd {
                    // Another member follows the one that ended.
                    guard inflateReset(&stream) == Z_OK else { throw Error(description: "the gzip data is corrupt") }
                    atStreamEnd = false
                }
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if produced > 0, !output(chunk[0..<produced]) { return false }
                switch status {
                case Z_OK:
                    if stream.avail_in == 0, stream.avail_out > 0 { return true }
                case Z_STREAM_END:
                    atStreamEnd = true
                    if stream.avail_in == 0 { return true }
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return true
                default:
                    throw Error(description: "the gzip data is corrupt")
                }
            }
            return true
        }

        /// The compressed data has ended: an error when its last member was cut short.
        func finish() throws(Error) {
            guard atStreamEnd else { throw Error(description: "the gzip data is cut short") }
        }
    }
}
