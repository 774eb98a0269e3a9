import Foundation

// MARK: - QueueClock

/// The time as a `QueueCore` reads it: seconds since boot for speeds and laggards, the date
/// for when a retry is due, and the chance that spreads retry waits. Tests give it a clock they
/// move by hand, with no chance in it.
protocol QueueClock: Sendable {
    var uptime: Double { get }
    var now: Date { get }
    /// The factor a retry's exponential wait is multiplied by, so that many downloads that
    /// failed together do not all try again at once.
    func retryJitter() -> Double
}

/// The system's clock.
struct SystemQueueClock: QueueClock {
    var uptime: Double { ProcessInfo.processInfo.systemUptime }
    var now: Date { Date() }
    func retryJitter() -> Double { Double.random(in: 0.8...1.2) }
}
