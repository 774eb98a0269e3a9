// MARK: - HexDigits

/// Bytes as hex digits and back, and percent-encoded text decoded: one reading of `0-9a-fA-F`
/// for every module (digests, aria2's bitfields and peer ids, RFC 5987 file names).
public enum HexDigits {
    /// `bytes` as lower-case hex, two digits a byte.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The digits.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of hex digit `byte` (either case), or nil for another byte.
    ///
    /// - Parameter byte: An ASCII byte.
    /// - Returns: 0 to 15, or nil.
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes percent-encoded `text` holds; nil when a `%` is not followed by two hex digits.
    ///
    /// - Parameter text: Percent-encoded text.
    /// - Returns: The bytes, or nil.
    public static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(value(of:)), let low = iterator.next().flatMap(value(of:))
                else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
