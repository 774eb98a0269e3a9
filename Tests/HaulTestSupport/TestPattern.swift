import Foundation

// MARK: - TestPattern

/// The bytes every sized body of the fault server carries: byte `i` of a body is
/// `table[i % period]`, a fixed pseudo-random table, so a client's copy can be checked at any
/// offset without either side keeping the body.
public enum TestPattern {
    public static let period = 65_521

    /// The table twice over, so any run of up to `period` bytes is one contiguous slice.
    static let doubled: [UInt8] = {
        var state: UInt32 = 0x9E37_79B9
        var table = [UInt8](repeating: 0, count: period)
        for index in 0..<period {
            state = state &* 1_664_525 &+ 1_013_904_223
            table[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return table + table
    }()

    /// The `count` body bytes starting at `offset`.
    public static func bytes(offset: Int = 0, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        forEachRun(offset: offset, count: count) { result.append(contentsOf: $0) }
        return result
    }

    /// True when `data` equals the body bytes at `offset`.
    public static func matches(_ data: some ContiguousBytes, offset: Int = 0) -> Bool {
        data.withUnsafeBytes { buffer in
            var position = 0
            var equal = true
            forEachRun(offset: offset, count: buffer.count) { run in
                guard equal else { return }
                run.withUnsafeBytes { expected in
                    guard let base = buffer.baseAddress, let run = expected.baseAddress else {
                        equal = expected.isEmpty
                        return
                    }
                    equal = memcmp(base + position, run, expected.count) == 0
                }
                position += run.count
            }
            return equal
        }
    }

    /// Calls `body` with consecutive slices of the pattern covering `offset..<offset+count`.
    public static func forEachRun(offset: Int, count: Int, _ body: (ArraySlice<UInt8>) -> Void) {
        var position = offset
        let end = offset + count
        while position < end {
            let start = position % period
            let length = min(period, end - position)
            body(doubled[start..<(start + length)])
            position += length
        }
    }
}
