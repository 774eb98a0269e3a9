import CZlib

// MARK: - Gzip

/// Recognises and inflates gzip data (queue files may be gzip-compressed).
public enum Gzip {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// True when `bytes` start with the gzip magic number.
    public static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The inflated bytes of every gzip member in `bytes`.
    public static func decompress(_ bytes: [UInt8]) throws(Error) -> [UInt8] {
        var stream = z_stream()
        guard haul_inflate_init_gzip(&stream) == Z_OK else { throw Error(description: "zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { outputBuffer -> Int32 in
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = uInt(outputBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Concatenated members (`cat a.gz b.gz`) continue after a reset.
                    if stream.avail_in == 0 { return Z_STREAM_END }
                    guard inflateReset(&stream) == Z_OK else { return Z_DATA_ERROR }
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return Z_BUF_ERROR
                default:
                    return status
                }
            }
        }
        switch result {
        case Z_STREAM_END: return output
        case Z_BUF_ERROR: throw Error(description: "the gzip data is cut short")
        default: throw Error(description: "the gzip data is corrupt")
        }
    }
}
