// MARK: - DisplayWidth

/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji
/// take two, combining marks and zero-width characters none, the rest one. Pure Swift, so a
/// frame is laid out the same whatever the locale, and tests can check it.
package enum DisplayWidth {
    /// Columns of one character (its first scalar decides; what follows combines with it).
    package static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) {
            return 2  // an emoji presentation selector makes the character an emoji
        }
        return of(first)
    }

    /// Columns of one scalar.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// Columns of `text`.
    package static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    // MARK: - Fitting

    /// `text` cut to at most `width` columns, with `…` in the middle when it had to be cut, so
    /// both the start and the extension of a long file name stay visible.
    package static func middleTruncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        if width == 1 { return "…" }
        let characters = Array(text)
        let budget = width - 1
        let tailBudget = budget / 2
        let headBudget = budget - tailBudget
        let head = prefix(text, width: headBudget)
        let headWidth = of(head)
        var tail: [Character] = [], tailWidth = 0
        for character in characters.reversed() {
            let columns = of(character)
            if tailWidth + columns > tailBudget + (headBudget - headWidth) { break }
            tail.append(character)
            tailWidth += columns
        }
        return head + "…" + String(tail.reversed())
    }

    /// `text` cut at the end to at most `width` columns.
    package static func prefix(_ text: String, width: Int) -> String {
        var result = "", used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width { break }
            result.append(character)
            used += columns
        }
        return result
    }
}
