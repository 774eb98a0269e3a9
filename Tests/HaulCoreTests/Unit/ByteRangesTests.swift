import HaulCore
import HaulTestSupport
import Testing

/// Progress as a set of byte ranges: merging, counting, the resume point, the stored text.
@Suite("Byte ranges")
struct ByteRangesTests {
    @Test("ranges merge when they overlap or touch, and stay sorted")
    func merging() {
        var ranges = ByteRanges()
        ranges.insert(100..<200)
        ranges.insert(300..<400)
        ranges.insert(0..<50)
        #expect(ranges.ranges == [0..<50, 100..<200, 300..<400])
        ranges.insert(200..<300)
        #expect(ranges.ranges == [0..<50, 100..<400])
        ranges.insert(40..<120)
        #expect(ranges.ranges == [0..<400])
        ranges.insert(10..<20)
        ranges.insert(500..<500)
        #expect(ranges.ranges == [0..<400])
        #expect(ranges.count == 400)
    }

    @Test("the resume point is the run from byte 0")
    func prefix() {
        #expect(ByteRanges([100..<200]).prefixLength == 0)
        #expect(ByteRanges([0..<150, 200..<300]).prefixLength == 150)
        #expect(ByteRanges([0..<300]).covers(length: 300))
        #expect(!ByteRanges([0..<299]).covers(length: 300))
        #expect(ByteRanges().covers(length: 0))
    }

    @Test("the text form round-trips and bad text is refused")
    func text() {
        let ranges = ByteRanges([0..<1_048_576, 2_097_152..<3_000_000])
        #expect(ranges.description == "0-1048576,2097152-3000000")
        #expect(ByteRanges(parsing: ranges.description) == ranges)
        #expect(ByteRanges(parsing: "") == ByteRanges())
        for bad in ["5", "1-2-3", "a-b", "9-3", "-1-4", "1-2,", ","] {
            #expect(ByteRanges(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("many random inserts equal a plain bitmap")
    func randomInserts() {
        var generator = SeededGenerator(seed: 7)
        var ranges = ByteRanges()
        var bitmap = [Bool](repeating: false, count: 2000)
        for _ in 0..<500 {
            let start = Int.random(in: 0..<2000, using: &generator)
            let end = min(2000, start + Int.random(in: 0..<40, using: &generator))
            ranges.insert(Int64(start)..<Int64(end))
            for index in start..<end { bitmap[index] = true }
        }
        #expect(ranges.count == Int64(bitmap.filter { $0 }.count))
        for range in ranges.ranges {
            #expect(bitmap[Int(range.lowerBound)..<Int(range.upperBound)].allSatisfy { $0 })
            if range.lowerBound > 0 { #expect(!bitmap[Int(range.lowerBound) - 1]) }
            if range.upperBound < 2000 { #expect(!bitmap[Int(range.upperBound)]) }
        }
    }
}
