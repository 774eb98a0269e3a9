// MARK: - FNV1a

/// 64-bit FNV-1a: a short, stable name for a longer text (a cache entry's URL, the URI a saved
/// file's mark stands for). Not a defence against anyone choosing collisions: whoever keeps
/// such a hash also keeps, or checks, what it stands for.
public enum FNV1a {
    /// The hash of `text`'s UTF-8 bytes.
    ///
    /// - Parameter text: Any text.
    /// - Returns: FNV-1a's 64-bit hash: the same on every run and machine, unlike `hashValue`.
    public static func hash(_ text: String) -> UInt64 {
        // On the bytes in place: each saved file's mark hashes its URI on the engine thread.
        text.withUTF8Bytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
    }

    /// The hash of `text`'s UTF-8 bytes as 16 hex digits.
    ///
    /// - Parameter text: Any text.
    /// - Returns: `hash(text)` in lowercase hex, zero-padded to 16 digits (a stable file name).
    public static func hex(_ text: String) -> String {
        let hex = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
