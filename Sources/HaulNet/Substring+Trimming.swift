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
}
