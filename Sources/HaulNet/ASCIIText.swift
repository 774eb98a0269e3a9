// MARK: - ASCIIText

/// ASCII case folding on UTF-8 bytes, for text read a million times (a queue file's lines, a
/// long queue's names): no `String` is made or lowercased to compare it.
public enum ASCIIText {
    /// `byte` with an ASCII capital made lowercase; any other byte as it is.
    public static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `bytes` spell `lowercase` (given in lower case), in any ASCII case.
    public static func equals(_ bytes: some Collection<UInt8>, ignoringCase lowercase: String) -> Bool {
        bytes.count == lowercase.utf8.count && zip(bytes, lowercase.utf8).allSatisfy { folded($0) == $1 }
    }
}
