// MARK: - Trimming

extension StringProtocol {
    /// Without leading and trailing HTTP white space (space, tab) and, with `lineEnds`, CR and
    /// LF. Works on the UTF-8 bytes: header lines are parsed for every response, and
    /// Foundation's `trimmingCharacters(in:)` costs a bridged CharacterSet each time.
    func trimmingHTTPWhitespace(lineEnds: Bool = true) -> Substring {
        let text = Substring(self)
        let utf8 = text.utf8
        func isTrimmed(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || (lineEnds && (byte == 0x0D || byte == 0x0A))
        }
        guard let first = utf8.firstIndex(where: { !isTrimmed($0) }),
            let last = utf8.lastIndex(where: { !isTrimmed($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// Without trailing CR and LF only: a header line keeps the leading white space that marks
    /// a continuation.
    func trimmingLineEnd() -> Substring {
        let text = Substring(self)
        var end = text.utf8.endIndex
        while end > text.utf8.startIndex {
            let before = text.utf8.index(before: end)
            guard text.utf8[before] == 0x0D || text.utf8[before] == 0x0A else { break }
            end = before
        }
        return text[..<end]
    }
}
