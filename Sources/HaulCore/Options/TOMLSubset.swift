// MARK: - TOMLSubset

/// The part of TOML that theme and config files use, checked line by line before TOMLKit reads
/// them: comments, `[section]` headers, and `key = value` where a value is a string, a
/// boolean, an integer, or a one-line inline table or array of those. TOMLKit's parser assumes, without
/// checking, things some malformed files break (undefined behaviour in a release build, found
/// by fuzzing), so nothing outside this subset reaches it.
struct TOMLSubset {
    private var scalars: [Unicode.Scalar]
    private var index = 0

    /// What is wrong with `line`, or nil when it is in the subset.
    static func problem(in line: Substring) -> String? {
        var scanner = TOMLSubset(scalars: Array(line.unicodeScalars))
        if scanner.scalars.last == "\r" { scanner.scalars.removeLast() }
        if scanner.scalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            return "a control character (TOML allows none but tab)"
        }
        return scanner.checkLine()
            ? nil
            : "not a line this file may hold: a comment, a [section], or key = value "
                + "(a string, true or false, a number, { key = value, … } or [ value, … ] on one line)"
    }

    // MARK: - Grammar

    private mutating func checkLine() -> Bool {
        skipBlanks()
        guard let first = peek, first != "#" else { return true }
        if first == "[" {
            index += 1
            skipBlanks()
            guard bareKey() else { return false }
            skipBlanks()
            guard take("]") else { return false }
        } else {
            guard keyValue(allowingTables: true) else { return false }
        }
        skipBlanks()
        return peek == nil || peek == "#"
    }

    private mutating func keyValue(allowingTables: Bool) -> Bool {
        guard key() else { return false }
        skipBlanks()
        guard take("=") else { return false }
        skipBlanks()
        if allowingTables, peek == "{" { return inlineTable() }
        if allowingTables, peek == "[" { return array() }
        return scalarValue()
    }

    /// `[ value, … ]` of scalars on one line (a trailing comma allowed, as TOML allows).
    private mutating func array() -> Bool {
        index += 1
        skipBlanks()
        while true {
            if take("]") { return true }
            guard scalarValue() else { return false }
            skipBlanks()
            if take("]") { return true }
            guard take(",") else { return false }
            skipBlanks()
        }
    }

    private mutating func inlineTable() -> Bool {
        index += 1
        skipBlanks()
        if take("}") { return true }
        while true {
            guard keyValue(allowingTables: false) else { return false }
            skipBlanks()
            if take("}") { return true }
            guard take(",") else { return false }
            skipBlanks()
        }
    }

    private mutating func key() -> Bool {
        if peek == "\"" || peek == "'" { return string() }
        return bareKey()
    }

    private mutating func bareKey() -> Bool {
        let start = index
        while let scalar = peek, scalar.isASCII,
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-"
        {
            index += 1
        }
        return index > start
    }

    private mutating func scalarValue() -> Bool {
        if peek == "\"" || peek == "'" { return string() }
        for word in ["true", "false"] where matches(word) {
            index += word.unicodeScalars.count
            return true
        }
        if peek == "+" || peek == "-" { index += 1 }
        let start = index
        while let scalar = peek, ("0"..."9").contains(scalar) { index += 1 }
        return index > start
    }

    /// A basic string (escapes `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, `\uXXXX`) or a literal one.
    private mutating func string() -> Bool {
        guard let quote = peek else { return false }
        index += 1
        while let scalar = peek {
            index += 1
            if scalar == quote { return true }
            guard quote == "\"", scalar == "\\" else { continue }
            guard let escaped = peek else { return false }
            index += 1
            if escaped == "u" {
                for _ in 0..<4 {
                    guard let digit = peek, digit.properties.isASCIIHexDigit else { return false }
                    index += 1
                }
            } else if !"\"\\btnfr".unicodeScalars.contains(escaped) {
                return false
            }
        }
        return false
    }

    // MARK: - Scanning

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    private func matches(_ word: String) -> Bool {
        let word = Array(word.unicodeScalars)
        return index + word.count <= scalars.count && Array(scalars[index..<(index + word.count)]) == word
    }

    private mutating func skipBlanks() {
        while peek == " " || peek == "\t" { index += 1 }
    }
}
