import HaulCore

/// Tests name downloads with short words ("a", "b", "late"): a word's bytes, up to eight, are
/// its gid's number; sixteen hex digits are the gid they spell.
extension GID: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        if let gid = GID(text) {
            self = gid
        } else {
            let number = text.utf8.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self = GID(number) ?? .next()
        }
    }

    /// The word a test named the gid by, else its 16 hex digits.
    var word: String {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }.drop { $0 == 0 }
        let isWord = bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        return isWord && GID(String(decoding: bytes, as: UTF8.self)) == nil
            ? String(decoding: bytes, as: UTF8.self) : description
    }
}

extension DefaultStringInterpolation {
    /// In these tests a gid is shown as the word it was named by (`a`, not `0000000000000061`),
    /// so tables of effects read as they are written.
    mutating func appendInterpolation(_ gid: GID) { appendLiteral(gid.word) }
}
