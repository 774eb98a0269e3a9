import Foundation

// MARK: - NaturalOrder

/// The order a file manager lists names in: letters without regard to case, runs of digits by
/// their value (`file2` before `file10`). Like Foundation's `localizedStandardCompare`, without
/// the locale, and fast enough to sort a million names.
enum NaturalOrder {
    static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var left = lhs.unicodeScalars.makeIterator()
        var right = rhs.unicodeScalars.makeIterator()
        var leftScalar = left.next()
        var rightScalar = right.next()
        while let leftNow = leftScalar, let rightNow = rightScalar {
            if isDigit(leftNow), isDigit(rightNow) {
                let leftRun = digits(from: leftNow, &left)
                let rightRun = digits(from: rightNow, &right)
                if leftRun.digits.count != rightRun.digits.count {
                    return leftRun.digits.count < rightRun.digits.count ? .orderedAscending : .orderedDescending
                }
                if leftRun.digits != rightRun.digits {
                    return leftRun.digits.lexicographicallyPrecedes(rightRun.digits)
                        ? .orderedAscending : .orderedDescending
                }
                leftScalar = leftRun.next
                rightScalar = rightRun.next
                continue
            }
            let leftValue = folded(leftNow)
            let rightValue = folded(rightNow)
            if leftValue != rightValue { return leftValue < rightValue ? .orderedAscending : .orderedDescending }
            leftScalar = left.next()
            rightScalar = right.next()
        }
        switch (leftScalar, rightScalar) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        default: return .orderedDescending
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    /// The run of digits starting at `first`, without leading zeros, and the scalar after it.
    private static func digits(
        from first: Unicode.Scalar, _ iterator: inout String.UnicodeScalarView.Iterator
    ) -> (digits: [UInt8], next: Unicode.Scalar?) {
        var run: [UInt8] = []
        var scalar: Unicode.Scalar? = first
        while let digit = scalar, isDigit(digit) {
            if !(run.isEmpty && digit == "0") { run.append(UInt8(digit.value)) }
            scalar = iterator.next()
        }
        return (run, scalar)
    }

    /// ASCII capitals as small letters; other scalars as they are.
    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        scalar.value >= 0x41 && scalar.value <= 0x5A ? scalar.value | 0x20 : scalar.value
    }
}
