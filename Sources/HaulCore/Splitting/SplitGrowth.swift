// MARK: - SplitGrowth

/// How many connections a download split automatically (`--split-mode=auto`) uses, decided
/// from its total speed measured step by step: it starts on one connection, then multiplies the
/// count while each step raises the speed by most of what the added connections would bring on
/// a link that caps each one, and settles where a step stops paying, on the count the speeds
/// say the link rewards. A server that refuses or cuts an added connection settles it at once
/// on the connections that still run.
///
/// Under the download's own speed limit a step pays while the total is below the limit, and
/// the count settles on the step that reaches it (500K from a server that sends 200 KiB/s a
/// connection: 4, at 125K each). The first step is taken whatever the first connection's
/// rate: measured young it is no measure of a limit (nginx's `limit_rate` sends a second's
/// worth at once).
///
/// A pure value: the queue core measures (`measured(rate:)`, with `GrowthMeter`) once each
/// step's connections have run as long as the first one ran alone, and does what the answer
/// says.
public struct SplitGrowth: Equatable, Sendable {
    /// What to do after a measurement.
    public enum Step: Equatable, Sendable {
        /// Start this many more connections, then measure again.
        case add(Int)
        /// Stop this many of the last ones; settled.
        case remove(Int)
        /// Keep the connections there are; settled.
        case hold
        /// Nothing came in the window: measure the same connections once more.
        case again
    }

    /// Each step multiplies the connections by this much (within `limit`).
    static let factor = 4
    /// A step that brings at least this share of what its connections would bring on a capped
    /// link (where speed grows with the count) is followed by another.
    static let keepGrowing = 0.6
    /// A total of at least this share of the speed limit reaches it.
    static let reachesLimit = 0.9

    /// The connections the download uses now.
    public private(set) var connections = 1
    /// The most it may use.
    public let limit: Int
    /// Whether it decided for good.
    public private(set) var isSettled = false
    /// Why it uses the connections it does, for the detail pane and `haul get -v`.
    public private(set) var reason = "1 connection: measuring"
    /// A speed, and the connections it was measured on.
    struct Measure: Equatable, Sendable {
        let rate: Double
        let connections: Int
    }

    /// The speed before the last step.
    private var before: Measure?
    /// The download's speed limit (bytes a second), if it has one.
    let speedLimit: Int64?
    /// When a server first refused an added connection (uptime, seconds).
    private var pushedBackAt: Double?

    /// Growth that starts on one connection.
    ///
    /// - Parameters:
    ///   - limit: The most connections allowed (`-x` within the overall cap); at most 1 settles
    ///     at once.
    ///   - speedLimit: The download's speed limit (bytes a second), or nil.
    public init(limit: Int, speedLimit: Int64? = nil) {
        self.limit = max(limit, 1)
        self.speedLimit = speedLimit.flatMap { $0 > 0 ? $0 : nil }
        if self.limit == 1 { settle("1 connection: no more allowed") }
    }

    /// Growth settled already on `connections` (a download resumed in the same run goes on with
    /// the count it had settled on, saying `why`).
    init(limit: Int, speedLimit: Int64?, settledOn connections: Int, _ why: String) {
        self.init(limit: limit, speedLimit: speedLimit)
        self.connections = min(max(connections, 1), self.limit)
        settle(why)
    }

    /// The download's total speed (bytes a second), measured over a window once the last
    /// step's connections were all running. Returns what to do next.
    ///
    /// - Parameters:
    ///   - rate: Bytes a second, all connections together, as the step's measure says.
    ///   - total: The step's connections' own rates times the connections: under a speed
    ///     limit, the measure of whether they reach it (each gets its share of the limit, so
    ///     their share of a lone connection says less).
    /// - Returns: Add or remove connections (to `connections`), hold, or measure again.
    public mutating func measured(rate: Double, total: Double = 0) -> Step {
        guard !isSettled else { return .hold }
        guard rate > 0 else { return .again }
        if let speedLimit, before != nil, max(rate, total) >= Double(speedLimit) * SplitGrowth.reachesLimit {
            settle("\(SplitGrowth.count(connections)): they reach the speed limit (\(ByteCount.format(speedLimit))/s)")
            return .hold
        }
        guard let before, before.rate > 0 else {
            // The first measurement, on one connection.
            return grow(from: rate)
        }
        let added = connections - before.connections
        let gain = rate / before.rate - 1
        // On a link that caps each connection the speed grows with the count: the step would
        // bring `added / before.connections` more.
        let expected = Double(added) / Double(before.connections)
        if gain >= expected * SplitGrowth.keepGrowing {
            if connections >= limit {
                settle("\(connections) connections: the most allowed (--max-connection-per-server)")
                return .hold
            }
            return grow(from: rate)
        }
        // The link rewards about `before.connections × rate / before.rate` connections.
        let rewarded = Double(before.connections) * max(rate / before.rate, 1)
        let keep = min(max(Int(rewarded.rounded()), before.connections), connections)
        let percent = Int((gain * 100).rounded())
        let removed = connections - keep
        let from = connections
        connections = keep
        settle(
            "\(SplitGrowth.count(keep)): \(from) were \(max(percent, 0))% faster than \(before.connections)")
        return removed > 0 ? .remove(removed) : .hold
    }

    /// The first connection's rate alone, known only after the first step was taken on its rate
    /// so far (the added connections connect while it is still alone): the step is judged
    /// against it.
    mutating func alone(rate: Double) {
        guard let before, before.connections == 1, rate > 0 else { return }
        self.before = Measure(rate: rate, connections: 1)
    }

    /// A server refused or cut an added connection, started at `startedAt`, before its first
    /// byte, at `now`: settles on the `running` ones left. Refused again, a connection started
    /// after that (one that took a finished one's place), settles on one.
    mutating func pushedBack(running: Int, why: String, startedAt: Double, now: Double) {
        if let pushedBackAt, startedAt > pushedBackAt {
            settle(on: 1, "the server refused more twice (\(why))")
        } else {
            pushedBackAt = pushedBackAt ?? now
            settle(on: running, "the server refused more (\(why))")
        }
    }

    /// What is left is too little for more connections: settles on the `running` ones.
    ///
    /// - Parameter running: The connections running now, which the download keeps.
    public mutating func finish(running: Int) {
        settle(on: running, "too little left for more")
    }

    /// Settles on the `running` connections (at most those it had, at least one), saying `why`.
    private mutating func settle(on running: Int, _ why: String) {
        connections = max(min(running, connections), 1)
        settle("\(SplitGrowth.count(connections)): \(why)")
    }

    private mutating func grow(from rate: Double) -> Step {
        let next = min(connections * SplitGrowth.factor, limit)
        guard next > connections else {
            settle("\(connections) connections: the most allowed (--max-connection-per-server)")
            return .hold
        }
        before = Measure(rate: rate, connections: connections)
        let added = next - connections
        connections = next
        reason = "\(next) connections: measuring"
        return .add(added)
    }

    /// `1 connection`, `N connections`.
    static func count(_ connections: Int) -> String {
        connections == 1 ? "1 connection" : "\(connections) connections"
    }

    private mutating func settle(_ why: String) {
        isSettled = true
        reason = why
    }
}
