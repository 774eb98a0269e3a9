// MARK: - GrowthMeter

/// How an automatic split measures a step: each new connection is compared with the first
/// connection at the same age (seconds since its first body byte), not the download's total
/// over a window. A connection in slow start is compared with the first one's slow start, and a
/// server that sends in bursts (nginx's `limit_rate` sends a second's worth at once, once a
/// second from the connection's start) is compared burst for burst; a window of the total
/// caught a burst or missed one, and the same link settled on 2, 5 or 4 connections run after
/// run.
///
/// The first connection is sampled until its rate is known: until the bytes of its last `window`
/// (half its answer time: some one and a half round trips) are no more than a quarter above
/// those of the window before (it has stopped speeding up), or `longestSolo` seconds. A new
/// connection is measured once, at `comparedAge` (two windows after its first byte, between the
/// progress messages around it); the ratio of its bytes to the first connection's at the same
/// age says what share of a lone connection it gets. On a link that caps each connection the
/// share is one at any age, slow start and all; fewer than some three round trips, and one
/// flight more or less would move it. The first step's connections connect while the first one
/// is still alone, so it is compared with itself alone. On a link one connection fills, new
/// ones get a fair share of it or, young against connections in full flow, less: the count
/// stays low.
///
/// A pure value, fed by the queue core on each progress message of the split's connections.
struct GrowthMeter: Equatable, Sendable {
    /// Bytes a connection had written at an age.
    struct Point: Equatable, Sendable {
        let age: Double
        let bytes: Int64

        /// The bytes at `age`, on the line from `low` to `high`.
        static func between(_ low: Point, _ high: Point, at age: Double) -> Point {
            let span = high.age - low.age
            guard span > 0, age < high.age else { return Point(age: age, bytes: high.bytes) }
            let part = max(age - low.age, 0) / span
            return Point(age: age, bytes: low.bytes + Int64((Double(high.bytes - low.bytes) * part).rounded()))
        }
    }

    /// The longest the first connection is measured alone (seconds).
    static let longestSolo = 2.0
    /// The shortest window of the test that the first connection's rate is known (seconds).
    static let shortestWindow = 0.05
    /// The window's share of the time the first connection took to answer: a few round trips.
    static let windowPerAnswer = 0.5
    /// How much faster the last window may be than the one before, with the rate known.
    static let steady = 1.25

    /// The window of the test, from how long the first connection took to answer (seconds).
    let window: Double
    /// The first connection's bytes at each age while it ran alone.
    private(set) var solo: [Point] = []
    /// The age at which the first connection's rate became known.
    private(set) var knownAge: Double?

    /// The age of the first connection at which the first step may start: its new connections,
    /// answering about as late as the first one did, then send their first bytes no sooner than
    /// `comparedAge`, so the first one is still alone at the age they are compared at (on a
    /// link of a few milliseconds, where the window is longer than an answer, it waits).
    let firstStepAge: Double

    /// A meter for a download whose first connection took `answerTime` seconds to answer.
    init(answerTime: Double) {
        window = max(GrowthMeter.shortestWindow, answerTime * GrowthMeter.windowPerAnswer)
        firstStepAge = max(2 * window - answerTime, 0)
    }

    /// Records the first connection's `bytes` at `age`; returns whether its rate is now known.
    mutating func soloSample(age: Double, bytes: Int64) -> Bool {
        if knownAge != nil { return true }
        if let last = solo.last, age <= last.age || bytes < last.bytes { return false }
        solo.append(Point(age: age, bytes: bytes))
        guard age >= 2 * window, bytes > 0 else { return false }
        let recent = bytes - soloBytes(at: age - window)
        let before = soloBytes(at: age - window) - soloBytes(at: age - 2 * window)
        if Double(recent) <= Double(before) * GrowthMeter.steady || age >= GrowthMeter.longestSolo {
            knownAge = age
        }
        return knownAge != nil
    }

    /// The first connection ended before its rate was known: what it did is all there is.
    /// Returns whether its rate is now known.
    mutating func soloEnded() -> Bool {
        guard knownAge == nil, let last = solo.last, last.age > 0, last.bytes > 0 else { return false }
        knownAge = last.age
        return true
    }

    /// The age at which new connections are compared with the first one, once its rate is known.
    var comparedAge: Double? {
        knownAge.map { _ in 2 * window }
    }

    /// The first connection's rate alone (bytes a second since its first byte), once known.
    var soloRate: Double? {
        guard let knownAge, let last = solo.last, knownAge > 0 else { return nil }
        return Double(last.bytes) / knownAge
    }

    /// The share of a lone connection that connections of a step got: the mean, over the
    /// points (each a new connection's bytes at an age of at least `comparedAge`), of its bytes
    /// over the first connection's at that age. Nil until the rate alone is known or without
    /// points.
    func share(of points: [Point]) -> Double? {
        guard let knownAge, let rate = soloRate, rate > 0, !points.isEmpty else { return nil }
        let shares = points.map { point -> Double in
            // Past the ages measured alone, the first connection goes on at its rate.
            let alone =
                point.age <= knownAge
                ? Double(soloBytes(at: point.age)) : Double(soloBytes(at: knownAge)) + rate * (point.age - knownAge)
            return alone > 0 ? Double(point.bytes) / alone : 0
        }
        return shares.reduce(0, +) / Double(shares.count)
    }

    /// The mean rate (bytes a second since their first byte) of connections measured at
    /// `points`, 0 without any.
    static func meanRate(of points: [Point]) -> Double {
        let rates = points.filter { $0.age > 0 }.map { Double($0.bytes) / $0.age }
        return rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count)
    }

    /// The first connection's bytes at `age`, between the samples around it.
    func soloBytes(at age: Double) -> Int64 {
        guard let after = solo.firstIndex(where: { $0.age >= age }) else { return solo.last?.bytes ?? 0 }
        guard after > solo.startIndex else { return solo[after].bytes }
        return Point.between(solo[after - 1], solo[after], at: age).bytes
    }
}
