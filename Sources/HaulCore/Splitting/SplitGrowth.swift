// MARK: - SplitGrowth

/// How many connections a download split automatically (`--split-mode=auto`) uses, decided
/// from its total speed measured step by step: it starts on one connection, then multiplies the
/// count while each step raises the speed by most of what the added connections would bring on
/// a link that caps each one, and settles where a step stops paying, on the count the speeds
/// say the link rewards. A server that refuses or cuts an added connection settles it at once
/// on the connections that still run.
///
/// A pure value: the queue core measures (`measured(rate:)`) once each step's connections are
/// running, and does what the answer says.
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

    /// Growth that starts on one connection.
    ///
    /// - Parameter limit: The most connections allowed (`-x` within the overall cap); at most 1
    ///   settles at once.
    public init(limit: Int) {
        self.limit = max(limit, 1)
        if self.limit == 1 { settle("1 connection: no more allowed") }
    }

    /// The download's total speed (bytes a second), measured over a window once the last
    /// step's connections were all running. Returns what to do next.
    ///
    /// - Parameter rate: Bytes a second over the window, all connections together.
    /// - Returns: Add or remove connections (to `connections`), hold, or measure again.
    public mutating func measured(rate: Double) -> Step {
        guard !isSettled else { return .hold }
        guard rate > 0 else { return .again }
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

    /// A server refused or cut an added connection: settles on the `running` ones left.
    mutating func pushedBack(running: Int, why: String) {
        settle(on: running, "the server refused more (\(why))")
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

    private static func count(_ connections: Int) -> String {
        connections == 1 ? "1 connection" : "\(connections) connections"
    }

    private mutating func settle(_ why: String) {
        isSettled = true
        reason = why
    }
}
