// MARK: - SegmentPlanner

/// Decides which byte ranges of one file each connection fetches, as aria2 and axel do but
/// with no slow tail: the missing parts are split among the connections, a connection that
/// finishes takes over half of the largest remaining segment, near the end an idle connection
/// races the slowest segment's tail, and a connection far slower than the others is dropped so
/// its range can be taken over. Pure: it sees segments and returns decisions, so every rule is
/// a unit test.
///
/// In order (`--stream-piece-selector=inorder`), every cut is made a piece (`minSplitSize`)
/// after where the front-most work starts, never in the middle: the connections fetch the file
/// front to back, a piece each, so it can be played while it downloads.
public struct SegmentPlanner: Sendable {
    /// Where connections cut the file: halves of the largest part (fastest overall), or pieces
    /// from the front (aria2's `inorder` piece selector).
    public enum Order: String, Sendable, CaseIterable {
        case spread = "default"
        case inOrder = "inorder"
    }

    /// One connection's share: bytes `start..<end`, written up to `next` so far.
    public struct Segment: Equatable, Sendable {
        public let id: Int
        public var start: Int64
        public var next: Int64
        public var end: Int64
        /// Bytes a second, smoothed.
        public var speed: Double
        /// Seconds since the connection started.
        public var age: Double
        /// Seconds since it last wrote a byte.
        public var idle: Double

        /// A segment as its connection reports it.
        ///
        /// - Parameters:
        ///   - id: The connection's number within the download.
        ///   - start: The first byte of its share.
        ///   - next: The next byte it writes; `start` when nil (nothing written).
        ///   - end: The byte after its share.
        ///   - speed: Bytes a second, smoothed.
        ///   - age: Seconds since the connection started.
        ///   - idle: Seconds since it last wrote a byte.
        public init(
            id: Int, start: Int64, next: Int64? = nil, end: Int64, speed: Double = 0, age: Double = 0, idle: Double = 0
        ) {
            self.id = id
            self.start = start
            self.next = next ?? start
            self.end = end
            self.speed = speed
            self.age = age
            self.idle = idle
        }

        public var remaining: Int64 { max(end - next, 0) }
    }

    /// A running segment gives up the part after `newEnd` to a new connection, which fetches
    /// `range`.
    public struct Split: Equatable, Sendable {
        public let victim: Int
        public let newEnd: Int64
        public let range: Range<Int64>
    }

    /// An idle connection fetches `range`, the second half of what segment `victim` has left,
    /// while the victim goes on: whichever writes those bytes first wins.
    public struct Race: Equatable, Sendable {
        public let victim: Int
        public let range: Range<Int64>
    }

    /// How long a connection is given before it is judged a laggard.
    public struct Patience: Equatable, Sendable {
        /// A connection is judged only after running this long (seconds),
        public var grace = 3.0
        /// ... and dropped when slower than this fraction of the median of the others,
        public var laggardFraction = 0.1
        /// ... or when it has written nothing for this long (seconds).
        public var stall = 10.0
        /// How often the queue looks for laggards (seconds).
        public var checkEvery = 1.0

        /// The queue's patience: 3 s of grace, a tenth of the median, 10 s without a byte, checked
        /// each second.
        ///
        /// - Parameters:
        ///   - grace: Seconds a connection runs before it is judged.
        ///   - laggardFraction: The share of the others' median speed below which it is a laggard.
        ///   - stall: Seconds without a byte after which it is dropped whatever its speed.
        ///   - checkEvery: Seconds between looks for laggards.
        public init(grace: Double = 3.0, laggardFraction: Double = 0.1, stall: Double = 10.0, checkEvery: Double = 1.0)
        {
            self.grace = grace
            self.laggardFraction = laggardFraction
            self.stall = stall
            self.checkEvery = checkEvery
        }
    }

    public let length: Int64
    /// No segment smaller than this is started (aria2's `-k`).
    public let minSplitSize: Int64
    public let maxConnections: Int
    public let patience: Patience
    public let order: Order
    /// Ranges start on multiples of this, so writes stay aligned.
    public static let alignment: Int64 = 16 * 1024

    /// A planner for a file of `length` bytes.
    ///
    /// - Parameters:
    ///   - length: The file's length.
    ///   - minSplitSize: The smallest segment started (`-k`).
    ///   - maxConnections: The most connections at once (`-s` within `-x` for each server).
    ///   - patience: When a connection counts as a laggard.
    ///   - order: Whether connections cut halves of the largest part or pieces from the front.
    public init(
        length: Int64, minSplitSize: Int64, maxConnections: Int, patience: Patience = Patience(),
        order: Order = .spread
    ) {
        self.length = length
        self.minSplitSize = max(minSplitSize, SegmentPlanner.alignment)
        self.maxConnections = max(maxConnections, 1)
        self.patience = patience
        self.order = order
    }

    // MARK: - Starting

    /// The first ranges for a file of which `completed` is already on disk: the gaps, cut while
    /// there are connections to spare and both parts stay at least `minSplitSize` (the largest
    /// halved; in order, a piece cut off the front of the last).
    func initialRanges(completed: ByteRanges) -> [Range<Int64>] {
        var ranges = completed.gaps(upTo: length)
        guard !ranges.isEmpty else { return [] }
        while ranges.count < maxConnections, let index = rangeToCut(ranges), let cut = cutPoint(of: ranges[index]) {
            let range = ranges[index]
            ranges[index] = range.lowerBound..<cut
            ranges.insert(cut..<range.upperBound, at: index + 1)
        }
        return ranges
    }

    /// Which of `ranges` (in file order) the next cut goes into.
    private func rangeToCut(_ ranges: [Range<Int64>]) -> Int? {
        switch order {
        case .spread: ranges.indices.max { ranges[$0].count < ranges[$1].count }
        case .inOrder: ranges.indices.last { cutPoint(of: ranges[$0]) != nil }
        }
    }

    // MARK: - Work stealing

    /// For a connection that is free: half of the segment with the most left to fetch (in order:
    /// what lies a piece beyond where the last segment is), if both parts stay at least
    /// `minSplitSize`.
    ///
    /// - Parameter segments: The running connections' segments.
    /// - Returns: The range the free connection takes and the segment it is cut from, or nil when no
    ///   segment is long enough to halve.
    public func steal(from segments: [Segment]) -> Split? {
        let victim =
            switch order {
            case .spread: segments.max { $0.remaining < $1.remaining }
            case .inOrder: segments.filter { cutPoint(of: $0.next..<$0.end) != nil }.max { $0.end < $1.end }
            }
        guard let victim, let cut = cutPoint(of: victim.next..<victim.end) else { return nil }
        return Split(victim: victim.id, newEnd: cut, range: cut..<victim.end)
    }

    /// Near the end, when nothing can be split: the second half of what the segment that will
    /// finish last has left, for an idle connection to race (see `Race`). Segments with less
    /// than two alignment units left are not worth a new request.
    func tailToRace(in segments: [Segment]) -> Race? {
        guard steal(from: segments) == nil,
            let last = segments.filter({ $0.remaining >= 2 * SegmentPlanner.alignment })
                .max(by: { estimatedFinish($0) < estimatedFinish($1) })
        else {
            return nil
        }
        let middle = last.next + last.remaining / 2
        return Race(victim: last.id, range: (middle - middle % SegmentPlanner.alignment)..<last.end)
    }

    /// Connections to drop so their ranges can be taken over: stalled ones, and ones far slower
    /// than the median of the others once they have had time to get going.
    func laggards(in segments: [Segment]) -> [Int] {
        let running = segments.filter { $0.remaining > 0 }
        guard running.count > 1 else { return running.filter { $0.idle >= patience.stall }.map(\.id) }
        return running.compactMap { segment in
            if segment.idle >= patience.stall { return segment.id }
            guard segment.age >= patience.grace else { return nil }
            let others = running.filter { $0.id != segment.id }.map(\.speed).sorted()
            let median = others[others.count / 2]
            return segment.speed < median * patience.laggardFraction ? segment.id : nil
        }
    }

    // MARK: - Pieces

    /// Where to cut `range` in two parts of at least `minSplitSize`, aligned: in the middle, or
    /// in order a piece after its start; nil if it cannot.
    func cutPoint(of range: Range<Int64>) -> Int64? {
        guard Int64(range.count) >= 2 * minSplitSize else { return nil }
        let alignment = SegmentPlanner.alignment
        let aligned =
            switch order {
            case .spread: (range.lowerBound + Int64(range.count) / 2) / alignment * alignment
            case .inOrder: (range.lowerBound + minSplitSize + alignment - 1) / alignment * alignment
            }
        guard aligned - range.lowerBound >= minSplitSize, range.upperBound - aligned >= minSplitSize else { return nil }
        return aligned
    }

    /// Seconds until `segment` is done at its speed (infinity when it has none).
    func estimatedFinish(_ segment: Segment) -> Double {
        segment.speed > 0 ? Double(segment.remaining) / segment.speed : .infinity
    }
}
