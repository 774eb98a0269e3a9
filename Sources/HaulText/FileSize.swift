// MARK: - FileSize

/// The sizes and positions haul takes from others (a server's Content-Length and Content-Range,
/// a Metalink's `<size>`, an FTP `SIZE`, a stored or remote queue): none is larger than
/// `largest`, so that arithmetic on one file's sizes and offsets cannot overflow; sums over many
/// files saturate (`Int64.adding(saturating:)`) or are made in 128 bits.
public enum FileSize {
    /// 2^53 bytes (8 PiB): larger than any file a server can send, and every position below it
    /// is exact as a `Double` too. Twice it, or it times 1024, still fits in `Int64`.
    public static let largest: Int64 = 1 << 53

    /// `value` when it is a size haul takes (0 through `largest`), else nil.
    ///
    /// - Parameter value: A size a server, a file or a client sent.
    /// - Returns: `value`, or nil when it is negative or larger than `largest` (8 PiB).
    public static func checked(_ value: Int64) -> Int64? {
        value >= 0 && value <= largest ? value : nil
    }
}

extension Int64 {
    /// `self + other`, held at `Int64.max` or `Int64.min` rather than overflowing.
    ///
    /// - Parameter other: The number to add.
    /// - Returns: The sum, or the bound it would have passed.
    public func adding(saturating other: Int64) -> Int64 {
        let (sum, overflowed) = addingReportingOverflow(other)
        guard overflowed else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self / divisor` rounded up, for a positive divisor and a non-negative `self`, without
    /// the `self + divisor - 1` that overflows near `Int64.max`.
    ///
    /// - Parameter divisor: A positive number (a piece size, a connection count).
    /// - Returns: The smallest whole number of `divisor`s that covers `self`.
    public func dividedRoundingUp(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder > 0 ? quotient + 1 : quotient
    }
}

extension FixedWidthInteger {
    /// `value` rounded toward zero and held at the type's bounds; NaN is 0. For what is worked
    /// out in floating point from others' numbers (a speed, the time left at it).
    ///
    /// - Parameter value: A number worked out in floating point.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
