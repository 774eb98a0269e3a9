import HaulNet
import HaulText

// MARK: - ByteRanges

/// The parts of a file already received: sorted, non-overlapping, non-adjacent half-open byte
/// ranges. A download's progress is one of these, not one offset, so that several connections
/// can fill one file and a checkpoint can say exactly which bytes are on disk.
public struct ByteRanges: Sendable, Equatable, CustomStringConvertible {
    public private(set) var ranges: [Range<Int64>] = []

    /// No bytes.
    public init() {}

    /// The bytes of `ranges`, merged.
    ///
    /// - Parameter ranges: Ranges in any order; they may overlap.
    public init(_ ranges: [Range<Int64>]) {
        for range in ranges { insert(range) }
    }

    /// Bytes covered.
    public var count: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Length of the run that starts at byte 0: where a single connection resumes.
    public var prefixLength: Int64 {
        guard let first = ranges.first, first.lowerBound == 0 else { return 0 }
        return first.upperBound
    }

    /// Whether every byte of `0..<length` is covered.
    ///
    /// - Parameter length: A file's length.
    /// - Returns: True when the ranges hold every byte from 0 up to `length`.
    public func covers(length: Int64) -> Bool {
        length <= 0 || prefixLength >= length
    }

    /// The parts of `0..<length` not covered, in order.
    func gaps(upTo length: Int64) -> [Range<Int64>] {
        var gaps: [Range<Int64>] = []
        var position: Int64 = 0
        for range in ranges where position < length {
            if range.lowerBound > position { gaps.append(position..<min(range.lowerBound, length)) }
            position = max(position, range.upperBound)
        }
        if position < length { gaps.append(position..<length) }
        return gaps
    }

    // MARK: - Changing

    /// Adds `range`, merging it with any range it overlaps or touches.
    ///
    /// - Parameter range: The bytes written; an empty range changes nothing.
    public mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        // The first range that ends at or after `range` starts: everything before stays.
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var merged = range
        var end = low
        while end < ranges.count, ranges[end].lowerBound <= merged.upperBound {
            merged = min(merged.lowerBound, ranges[end].lowerBound)..<max(merged.upperBound, ranges[end].upperBound)
            end += 1
        }
        ranges.replaceSubrange(low..<end, with: [merged])
    }

    /// Takes `range` out: what it covers is no longer held.
    ///
    /// - Parameter range: The bytes to forget; an empty range changes nothing.
    public mutating func remove(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        ranges = ranges.flatMap { held -> [Range<Int64>] in
            guard held.overlaps(range) else { return [held] }
            let before = held.lowerBound..<max(range.lowerBound, held.lowerBound)
            let after = min(range.upperBound, held.upperBound)..<held.upperBound
            return [before, after].filter { !$0.isEmpty }
        }
    }

    /// Forgets every byte: a download that starts over.
    public mutating func removeAll() {
        ranges.removeAll()
    }

    // MARK: - Text

    /// `start-end,start-end` with `end` exclusive; empty when nothing is covered. The store keeps
    /// progress in this form.
    public var description: String {
        ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }

    /// Parses `description`'s form; nil when the text is not in it or a range ends past
    /// `FileSize.largest`.
    ///
    /// - Parameter text: Such as `0-1048576,2097152-3145728` (half-open ranges); empty for none.
    public init?(parsing text: String) {
        guard !text.isEmpty else { return }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let lower = Int64(bounds[0]),
                let upper = Int64(bounds[1]).flatMap(FileSize.checked),
                lower >= 0, lower <= upper
            else { return nil }
            insert(lower..<upper)
        }
    }
}
