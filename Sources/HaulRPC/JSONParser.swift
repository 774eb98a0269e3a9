// MARK: - JSONParser

/// Reads JSON text (RFC 8259) into a `JSONValue`, in one pass over the bytes and in time
/// linear in their number, with arrays and objects nested at most `maximumDepth` deep. What a
/// client sends is read before its secret is checked, so no text may cost more than its length:
/// Foundation's decoder, through `JSONValue`'s `Decodable` tries, took seconds over a few
/// kilobytes of nested brackets.
struct JSONParser {
    /// The deepest nesting read; a request of aria2's needs 5 (a `system.multicall` of calls
    /// with options holding a header list). aria2's own parser stops at 50.
    static let maximumDepth = 32

    /// Why text is not read.
    enum Failure: Error, Equatable {
        case syntax(offset: Int)
        case tooDeep
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value `bytes` hold (white space around it aside).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw .syntax(offset: parser.index) }
        return value
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipSpace()
        guard let byte = peek() else { throw .syntax(offset: index) }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw .tooDeep }
        index += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw .syntax(offset: index) }
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            fields[key] = try value(depth: depth)
            skipSpace()
            if try endOrComma(UInt8(ascii: "}")) { return .object(fields) }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw .tooDeep }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipSpace()
            if try endOrComma(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    /// True after `close`, false after a comma; else the text is broken.
    private mutating func endOrComma(_ close: UInt8) throws(Failure) -> Bool {
        switch peek() {
        case close:
            index += 1
            return true
        case UInt8(ascii: ","):
            index += 1
            return false
        default: throw .syntax(offset: index)
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .syntax(offset: index) }
        let matches = word.withUTF8Buffer { expected in expected.elementsEqual(bytes[index..<(index + count)]) }
        guard matches else { throw .syntax(offset: index) }
        index += count
        return value
    }

    // MARK: - Numbers

    /// An integer that fits `Int64` stays one (a request's `id` is echoed as it came); any
    /// other number is a `Double`.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        skipDigits()
        let integerDigits = index - integerStart
        guard integerDigits > 0 else { throw .syntax(offset: start) }
        // No leading zero before other digits.
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw .syntax(offset: start) }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw .syntax(offset: index) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw .syntax(offset: index) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw .syntax(offset: start) }
        return .double(double)
    }

    /// Skips decimal digits and says how many.
    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    // MARK: - Strings

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard let byte = peek() else { throw .syntax(offset: index) }
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
                index += 1
                scalars.append(try escape())
                runStart = index
            case 0..<0x20:
                // A control character is written escaped in JSON.
                throw .syntax(offset: index)
            default:
                index += 1
            }
        }
    }

    /// The character an escape after its backslash stands for.
    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let byte = peek() else { throw .syntax(offset: index) }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            guard (0xD800..<0xDC00).contains(unit) else {
                // A lone low surrogate is no character: the replacement character stands for it.
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
            // A high surrogate pairs with a `\u` low one that follows.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return "\u{FFFD}" }
            let mark = index
            index += 2
            let low = try hexUnit()
            guard (0xDC00..<0xE000).contains(low) else {
                index = mark
                return "\u{FFFD}"
            }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
        default: throw .syntax(offset: index - 1)
        }
    }

    /// Four hex digits.
    private mutating func hexUnit() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .syntax(offset: index) }
        var unit: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .syntax(offset: index)
            }
            unit = unit << 4 | UInt32(digit)
        }
        index += 4
        return unit
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipSpace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else { throw .syntax(offset: index) }
        index += 1
    }
}
