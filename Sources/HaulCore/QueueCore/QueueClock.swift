import Foundation

// MARK: - QueueClock

/// The time as a `QueueCore` reads it: seconds since boot for speeds and laggards, the date
/// for when a retry is due. Tests give it a clock they move by hand.
protocol QueueClock: Sendable {
    var uptime: Double { get }
    var now: Date { get }
}

/// The system's clock.
struct SystemQueueClock: QueueClock {
    var uptime: Double { ProcessInfo.processInfo.systemUptime }
    var now: Date { Date() }
}
