// MARK: - UTF-8 bytes in place

extension String {
    /// Runs `body` on the string's UTF-8 bytes where they are stored (copied first only for a
    /// string not stored as UTF-8). Text read for every download (URIs, dates, names) is
    /// scanned here by offset: walking `utf8` by `String.Index` costs tens of instructions a
    /// byte in index checks.
    ///
    /// - Parameter body: Reads the bytes; they are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Whether the string's UTF-8 holds `byte` (an `@` in a URI that may carry a password),
    /// scanned in place.
    ///
    /// - Parameter byte: The byte to look for.
    /// - Returns: Whether any of the string's UTF-8 bytes is `byte`.
    @inlinable
    public func containsUTF8Byte(_ byte: UInt8) -> Bool {
        withUTF8Bytes { $0.contains(byte) }
    }
}
