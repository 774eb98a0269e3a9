// MARK: - HTTP white space

/// Whether `byte` is HTTP white space (space, tab) or, with `lineEnds`, CR or LF.
func isHTTPWhitespace(_ byte: UInt8, lineEnds: Bool = true) -> Bool {
    byte == 0x20 || byte == 0x09 || (lineEnds && (byte == 0x0D || byte == 0x0A))
}

extension StringProtocol {
    /// Without leading and trailing HTTP white space (space, tab) and, with `lineEnds`, CR and
    /// LF. Works on the UTF-8 bytes: header lines are parsed for every response, and
    /// Foundation's `trimmingCharacters(in:)` costs a bridged CharacterSet each time.
    ///
    /// - Parameter lineEnds: Whether CR and LF are trimmed too (a raw header line) or kept (a value).
    /// - Returns: The text between the first and last byte that is not such white space; empty when
    ///   there is none.
    public func trimmingHTTPWhitespace(lineEnds: Bool = true) -> Substring {
        let text = Substring(self)
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isHTTPWhitespace($0, lineEnds: lineEnds) }),
            let last = utf8.lastIndex(where: { !isHTTPWhitespace($0, lineEnds: lineEnds) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }
}

extension UnsafeRawBufferPointer {
    /// These bytes without leading and trailing HTTP white space, as `trimmingHTTPWhitespace`
    /// trims text: for bytes read in place.
    func trimmingHTTPWhitespace(lineEnds: Bool = true) -> UnsafeRawBufferPointer {
        var start = 0
        var end = count
        while start < end, isHTTPWhitespace(self[start], lineEnds: lineEnds) { start += 1 }
        while end > start, isHTTPWhitespace(self[end - 1], lineEnds: lineEnds) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}
