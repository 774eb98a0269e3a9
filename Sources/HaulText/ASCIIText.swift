// MARK: - ASCIIText

/// ASCII case folding on UTF-8 bytes, for text read a million times (a queue file's lines, a
/// long queue's names): no `String` is made or lowercased to compare it.
public enum ASCIIText {
    /// `byte` with an ASCII capital made lowercase; any other byte as it is.
    ///
    /// - Parameter byte: Any byte.
    /// - Returns: The lowercase letter for `A` through `Z`; `byte` unchanged otherwise.
    @inlinable
    public static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `bytes` spell `lowercase` (given in lower case), in any ASCII case.
    ///
    /// Inlinable, so each caller gets a copy specialized to its collection: called through the
    /// generic entry point from another module, every call looked up the collection's
    /// associated types at run time (costly on every line of a long queue file).
    ///
    /// - Parameters:
    ///   - bytes: The bytes to compare, in any case.
    ///   - lowercase: The expected spelling, ASCII and already in lower case.
    /// - Returns: Whether the two have the same length and match byte for byte once `bytes` is folded.
    @inlinable
    public static func equals(_ bytes: some Collection<UInt8>, ignoringCase lowercase: String) -> Bool {
        var expected = lowercase.utf8.makeIterator()
        for byte in bytes {
            guard let wanted = expected.next(), folded(byte) == wanted else { return false }
        }
        return expected.next() == nil
    }
}
