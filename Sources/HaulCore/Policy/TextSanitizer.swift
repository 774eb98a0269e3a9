// MARK: - TextSanitizer

/// Makes text a server controls safe to show or to use as a name: terminal escape sequences and
/// control characters (C0, C1, DEL) and bidirectional overrides never pass through.
public enum TextSanitizer {
    /// `text` with every control character made visible (`^X`, `^[` for ESC, or `\u{…}`), so an
    /// escape sequence shows as text (`^[[2J`) and never acts on the terminal.
    ///
    /// - Parameter text: Text from a server, a file or a client.
    /// - Returns: The text safe to draw or log; printable text is unchanged.
    public static func visible(_ text: String) -> String {
        rewrite(text, droppingSequences: false) { scalar in
            if scalar.value < 0x20 { return "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40)) }
            if scalar.value == 0x7F { return "^?" }
            return "\\u{\(String(scalar.value, radix: 16))}"
        }
    }

    /// `text` with escape sequences and control characters removed.
    static func stripped(_ text: String) -> String {
        rewrite(text, droppingSequences: true) { _ in "" }
    }

    // MARK: - Scanning

    /// Whether `scalar` is a control character (C0, C1, DEL) or a bidirectional control.
    ///
    /// - Parameter scalar: One Unicode scalar.
    /// - Returns: True when drawing it raw could move the cursor, change the terminal or reorder text.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true  // bidi controls
        default: false
        }
    }

    /// Copies `text`, replacing every unsafe scalar with `replacement(scalar)`; with
    /// `droppingSequences`, whole ESC sequences (CSI, OSC/DCS up to BEL or ST, and two-byte
    /// ones) are dropped instead.
    private static func rewrite(
        _ text: String, droppingSequences: Bool,
        replacement: (Unicode.Scalar) -> String
    ) -> String {
        var output = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if droppingSequences, scalar == "\u{1B}" || scalar == "\u{9B}" || scalar == "\u{9D}" {
                skipEscapeSequence(introducer: scalar, in: &scalars)
            } else if isUnsafe(scalar) {
                output += replacement(scalar)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func skipEscapeSequence(introducer: Unicode.Scalar, in scalars: inout Substring.UnicodeScalarView) {
        var kind = introducer
        if introducer == "\u{1B}", let next = scalars.first {
            scalars.removeFirst()
            switch next {
            case "[": kind = "\u{9B}"
            case "]", "P", "X", "^", "_": kind = "\u{9D}"
            default: return  // a two-character sequence such as ESC c
            }
        }
        if kind == "\u{9B}" {
            // CSI: parameter and intermediate bytes, then one final byte 0x40-0x7E.
            while let next = scalars.popFirst() {
                if (0x40...0x7E).contains(next.value) { return }
            }
        } else {
            // OSC and friends: up to BEL or ST (ESC \).
            while let next = scalars.popFirst() {
                if next == "\u{07}" || next == "\u{9C}" { return }
                if next == "\u{1B}" {
                    if scalars.first == "\\" { scalars.removeFirst() }
                    return
                }
            }
        }
    }
}
