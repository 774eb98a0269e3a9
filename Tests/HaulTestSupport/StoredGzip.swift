// MARK: - StoredGzip

/// A gzip member whose deflate data is stored blocks: a valid gzip stream for any client
/// (zlib included) made without a compressor, for the fault server's encoded route.
public enum StoredGzip {
    public static func stored(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var index = 0
        repeat {
            let length = min(65_535, payload.count - index)
            let final: UInt8 = index + length == payload.count ? 1 : 0
            out.append(final)
            out.append(contentsOf: littleEndian(UInt16(length)))
            out.append(contentsOf: littleEndian(~UInt16(length)))
            out.append(contentsOf: payload[index..<(index + length)])
            index += length
        } while index < payload.count
        out.append(contentsOf: littleEndian(crc32(payload)))
        out.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: payload.count)))
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
