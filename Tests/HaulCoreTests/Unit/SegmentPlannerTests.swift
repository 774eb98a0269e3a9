import Testing

@testable import HaulCore

/// How one file is split over connections: the first split, stealing, the tail race, laggards.
@Suite("Segment planner")
struct SegmentPlannerTests {
    private let mib: Int64 = 1_048_576

    @Test("the missing parts are split while connections are free and pieces stay above -k")
    func initialSplit() {
        let planner = SegmentPlanner(length: 64 * mib, minSplitSize: 1 * mib, maxConnections: 16)
        let ranges = planner.initialRanges(completed: ByteRanges())
        #expect(ranges.count == 16)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 64 * mib)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.allSatisfy { $0.lowerBound % SegmentPlanner.alignment == 0 && Int64($0.count) >= mib })

        let small = SegmentPlanner(length: 30 * mib, minSplitSize: 20 * mib, maxConnections: 5)
        #expect(small.initialRanges(completed: ByteRanges()) == [0..<30 * mib], "no piece below 20M")

        let resumed = planner.initialRanges(completed: ByteRanges([0..<10 * mib, 20 * mib..<64 * mib]))
        #expect(resumed.first?.lowerBound == 10 * mib && resumed.last?.upperBound == 20 * mib)
        #expect(resumed.reduce(0) { $0 + Int64($1.count) } == 10 * mib)
        #expect(planner.initialRanges(completed: ByteRanges([0..<64 * mib])).isEmpty)
    }

    @Test("a free connection takes half of the largest remaining segment")
    func steal() {
        let planner = SegmentPlanner(length: 100 * mib, minSplitSize: 1 * mib, maxConnections: 4)
        let segments = [
            SegmentPlanner.Segment(id: 1, start: 0, next: 20 * mib, end: 25 * mib),
            SegmentPlanner.Segment(id: 2, start: 25 * mib, next: 30 * mib, end: 50 * mib),
            SegmentPlanner.Segment(id: 3, start: 50 * mib, next: 74 * mib, end: 75 * mib),
        ]
        let split = planner.steal(from: segments)
        #expect(split == SegmentPlanner.Split(victim: 2, newEnd: 40 * mib, range: 40 * mib..<50 * mib))
        let nearlyDone = [SegmentPlanner.Segment(id: 1, start: 0, next: 99 * mib, end: 100 * mib)]
        #expect(planner.steal(from: nearlyDone) == nil, "halves would be under -k")
    }

    @Test("when nothing can be split, the segment that will finish last is raced")
    func tailRace() {
        let planner = SegmentPlanner(length: 10 * mib, minSplitSize: 4 * mib, maxConnections: 4)
        let segments = [
            SegmentPlanner.Segment(id: 1, start: 0, next: 4 * mib, end: 5 * mib, speed: 4_000_000),
            SegmentPlanner.Segment(id: 2, start: 5 * mib, next: 6 * mib, end: 10 * mib, speed: 100_000),
            SegmentPlanner.Segment(id: 3, start: 0, next: 0, end: 0),
        ]
        let race = planner.tailToRace(in: segments)
        #expect(race?.victim == 2 && race?.range == 8 * mib..<10 * mib, "the second half of what it has left")
        let splittable = [SegmentPlanner.Segment(id: 1, start: 0, end: 10 * mib)]
        #expect(planner.tailToRace(in: splittable) == nil, "stealing comes first")
        let nearlyDone = [SegmentPlanner.Segment(id: 1, start: 0, next: 5 * mib - 1000, end: 5 * mib, speed: 10)]
        #expect(planner.tailToRace(in: nearlyDone) == nil, "a few bytes are not worth a request")
    }

    @Test("stalled connections and ones far slower than the others are dropped, after a grace time")
    func laggards() {
        let planner = SegmentPlanner(length: 100 * mib, minSplitSize: 1 * mib, maxConnections: 4)
        func segment(_ id: Int, speed: Double, age: Double = 5, idle: Double = 0) -> SegmentPlanner.Segment {
            SegmentPlanner.Segment(
                id: id, start: Int64(id) * 10 * mib, end: Int64(id + 1) * 10 * mib, speed: speed, age: age, idle: idle)
        }
        #expect(
            planner.laggards(in: [segment(1, speed: 4e6), segment(2, speed: 3.9e6), segment(3, speed: 2e5)]) == [3])
        #expect(
            planner.laggards(in: [segment(1, speed: 4e6), segment(2, speed: 3.9e6), segment(3, speed: 2e5, age: 1)])
                == [],
            "a new connection gets time to start")
        #expect(planner.laggards(in: [segment(1, speed: 4e6), segment(2, speed: 0, age: 20, idle: 12)]) == [2])
        #expect(planner.laggards(in: [segment(1, speed: 1e3)]) == [], "one connection is never judged against itself")
    }

    @Test(
        "in order, every cut is a piece after the front-most work: the first split, then each steal",
        arguments: [
            // (completed, first ranges in MiB)
            ([], [0..<4, 4..<8, 8..<12, 12..<64]),
            ([0..<10], [10..<14, 14..<18, 18..<22, 22..<64]),
            ([4..<10, 20..<64], [0..<4, 10..<14, 14..<20]),
            ([0..<60], [60..<64]),
        ] as [([Range<Int64>], [Range<Int64>])])
    func inOrderFirstSplit(completed: [Range<Int64>], expected: [Range<Int64>]) {
        let planner = SegmentPlanner(length: 64 * mib, minSplitSize: 4 * mib, maxConnections: 4, order: .inOrder)
        let inMiB = { (ranges: [Range<Int64>]) in ranges.map { $0.lowerBound * mib..<$0.upperBound * mib } }
        let ranges = planner.initialRanges(completed: ByteRanges(inMiB(completed)))
        #expect(ranges == inMiB(expected))
    }

    @Test("in order, a free connection takes what lies a piece beyond where the last segment is")
    func inOrderSteal() {
        let planner = SegmentPlanner(length: 64 * mib, minSplitSize: 4 * mib, maxConnections: 4, order: .inOrder)
        let segments = [
            SegmentPlanner.Segment(id: 1, start: 4 * mib, next: 6 * mib, end: 8 * mib),
            SegmentPlanner.Segment(id: 2, start: 8 * mib, next: 9 * mib, end: 12 * mib),
            SegmentPlanner.Segment(id: 3, start: 12 * mib, next: 13 * mib, end: 64 * mib),
        ]
        #expect(
            planner.steal(from: segments)
                == SegmentPlanner.Split(victim: 3, newEnd: 17 * mib, range: 17 * mib..<64 * mib),
            "not half of the largest, which the default order takes")
        let spread = SegmentPlanner(length: 64 * mib, minSplitSize: 4 * mib, maxConnections: 4)
        #expect(spread.steal(from: segments)?.newEnd == 38 * mib + 512 * 1024)
        let nearEnd = [
            SegmentPlanner.Segment(id: 1, start: 0, next: 10 * mib, end: 60 * mib),
            SegmentPlanner.Segment(id: 2, start: 60 * mib, next: 61 * mib, end: 64 * mib),
        ]
        #expect(
            planner.steal(from: nearEnd)?.range == 14 * mib..<60 * mib,
            "when the last segment is too short to cut, the last one that can be cut is")
    }
}
