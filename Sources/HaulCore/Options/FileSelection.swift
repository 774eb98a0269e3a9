// MARK: - FileSelection

/// aria2's `select-file`: which files of a torrent (or a Metalink) to download, by 1-based index,
/// as `1,3,5-7`.
public struct FileSelection: Sendable, Equatable, CustomStringConvertible {
    /// The index ranges, as given.
    public let ranges: [ClosedRange<Int>]

    /// Reads `1,3,5-7`.
    ///
    /// - Parameter text: Indexes and ranges of indexes, from 1, comma-separated.
    /// - Throws: `OptionError` naming the part that is not one.
    public init(parsing text: String) throws(OptionError) {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = ends.first.flatMap({ Int($0) }), first >= 1,
                let last = ends.count == 2 ? Int(ends[1]) : first, last >= first
            else {
                throw OptionError("'\(part)' in '\(text)' is not a file index from 1 or a range of them (3-5)")
            }
            ranges.append(first...last)
        }
        self.ranges = ranges
    }

    /// The files numbered `indices` (from 1), as the fewest ranges; nil when there are none.
    ///
    /// - Parameter indices: File numbers from 1, in any order; numbers below 1 are passed over.
    public init?(indices: some Sequence<Int>) {
        var ranges: [ClosedRange<Int>] = []
        for index in Set(indices).filter({ $0 >= 1 }).sorted() {
            if let last = ranges.last, last.upperBound == index - 1 {
                ranges[ranges.count - 1] = last.lowerBound...index
            } else {
                ranges.append(index...index)
            }
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// Whether file number `index` (from 1) is selected.
    ///
    /// - Parameter index: A file's number, from 1.
    /// - Returns: True when a range holds it.
    public func contains(_ index: Int) -> Bool {
        ranges.contains { $0.contains(index) }
    }

    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
    }
}
