import Testing

@testable import HaulCore

/// A speed is bytes that reached the file over time: the same figure however the bytes come
/// (steady, in bursts a cap lets through, after a change), as a table of arrivals → readings.
@Suite("Speed over a window")
struct SpeedSampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// (seconds from the start, bytes that arrived then)
        let arrivals: [(Double, Int64)]
        /// Every reading after this time must fall in `range` (bytes a second).
        let after: Double
        let range: ClosedRange<Double>
        var testDescription: String { name }
    }

    /// `chunk` bytes every `period` seconds, let through at `rate` in 16 KiB pieces.
    static func bursts(chunk: Int64, every period: Double, at rate: Double, for seconds: Double) -> [(Double, Int64)] {
        let piece: Int64 = 16 << 10
        var arrivals: [(Double, Int64)] = []
        var start = 0.0
        while start < seconds {
            for index in 1...Int(chunk / piece) {
                arrivals.append((start + Double(index) * Double(piece) / rate, piece))
            }
            start += period
        }
        return arrivals
    }

    static let kib = 1024.0
    static let cases: [Case] = [
        Case(
            name: "steady 200 KiB/s", arrivals: bursts(chunk: 16 << 10, every: 0.08, at: 1e9, for: 20), after: 3,
            range: 195 * kib...205 * kib),
        Case(
            name: "192 KiB a second let through a 500 KiB/s cap (was shown as ~300)",
            arrivals: bursts(chunk: 192 << 10, every: 1, at: 500 * kib, for: 30), after: 3,
            range: 170 * kib...215 * kib),
        Case(
            name: "192 KiB a second through a 300 KiB/s cap",
            arrivals: bursts(chunk: 192 << 10, every: 1, at: 300 * kib, for: 30), after: 3,
            range: 170 * kib...215 * kib),
        Case(
            name: "100 KiB/s, then 400 KiB/s: the new rate within the window",
            arrivals: bursts(chunk: 16 << 10, every: 0.16, at: 1e9, for: 10)
                + bursts(chunk: 16 << 10, every: 0.04, at: 1e9, for: 10).map { ($0.0 + 10, $0.1) },
            after: 12.5, range: 380 * kib...420 * kib),
    ]

    @Test("readings over time", arguments: cases)
    func readings(_ example: Case) {
        var sample = SpeedSample(bytes: 0, at: 0)
        var speed = 0.0
        var bytes: Int64 = 0
        var outside: [(Double, Double)] = []
        for (time, count) in example.arrivals {
            bytes += count
            sample.measure(&speed, bytes: bytes, at: time)
            if time > example.after, !example.range.contains(speed) { outside.append((time, speed / Self.kib)) }
        }
        #expect(outside.isEmpty, "\(outside.prefix(5))")
    }

    @Test("a second with no byte reads 0, and the next bytes are measured from then")
    func stall() {
        var sample = SpeedSample(bytes: 0, at: 0)
        var speed = 0.0
        for step in 1...10 { sample.measure(&speed, bytes: Int64(step) * 20_480, at: Double(step) * 0.1) }
        #expect(speed > 150_000)
        // Bytes that came after the last mark are measured first; a second later with none, 0.
        sample.settle(&speed, bytes: 204_800, at: 2.5)
        #expect(speed > 0)
        sample.settle(&speed, bytes: 204_800, at: 3.6)
        #expect(speed == 0)
        sample.measure(&speed, bytes: 204_800 + 40_960, at: 4.0)
        #expect(abs(speed - 102_400) < 1)
    }
}
