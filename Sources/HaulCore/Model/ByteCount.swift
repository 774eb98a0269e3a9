import Foundation
import HaulNet
import HaulText

// MARK: - ByteCount

/// Sizes as people type and read them: `512`, `64K`, `1.5M`, `2G` (powers of 1024), and
/// `1.2 GiB`, `830.0 MiB/s` for display.
public enum ByteCount {
    public struct ParseError: Error, CustomStringConvertible {
        public let text: String
        public var description: String {
            "'\(text)' is not a size; use a number with an optional K, M or G suffix (e.g. 500K, 2M)"
        }
    }

    /// Parses a size with an optional K/M/G (or KiB/MiB/GiB) suffix, at most `FileSize.largest`.
    ///
    /// - Parameter text: Such as `500K`, `2M`, `1.5GiB` or `1048576`; spaces around are ignored.
    /// - Returns: The number of bytes (K is 1024).
    /// - Throws: `ParseError` when the text is not such a size or is larger than `FileSize.largest`.
    public static func parse(_ text: String) throws(ParseError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = Substring(trimmed)
        var multiplier: Double = 1
        for (suffixes, factor) in [
            (["K", "KIB", "KB"], 1024.0), (["M", "MIB", "MB"], 1_048_576.0),
            (["G", "GIB", "GB"], 1_073_741_824.0),
        ] {
            if let suffix = suffixes.first(where: { trimmed.uppercased().hasSuffix($0) }) {
                digits = digits.dropLast(suffix.count)
                multiplier = factor
                break
            }
        }
        guard let value = Double(digits.trimmingCharacters(in: .whitespaces)), value >= 0, value.isFinite,
            value * multiplier <= Double(FileSize.largest)
        else { throw ParseError(text: text) }
        return Int64(value * multiplier)
    }

    /// `bytes` as an option's value is written: `20M`, `512K`, or bytes when neither divides it.
    static func optionText(_ bytes: Int64) -> String {
        if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20)M" }
        if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10)K" }
        return String(bytes)
    }

    /// `1.2 GiB`, `830.0 MiB`, `512 B`.
    ///
    /// - Parameter bytes: A number of bytes.
    /// - Returns: The number in the largest unit that keeps it at 1 or more, with one decimal above bytes.
    public static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        // 1023.96 KiB would print as `1024.0 KiB`: it is `1.0 MiB`.
        while value >= 1024 || (unit > 0 && value >= 1023.95), unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
