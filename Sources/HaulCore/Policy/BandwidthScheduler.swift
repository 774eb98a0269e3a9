import Foundation
import Synchronization

// MARK: - BandwidthScheduler

/// Keeps a queue's overall limit to a `BandwidthSchedule` as time passes: each `check` reads the
/// clock, and when the schedule's limit differs from the one it last applied, applies the new
/// one and reports the status (the limit in force, when it changes next and to what). A limit
/// the user sets by hand holds until the schedule's next change.
///
/// **Threading:** `check` may be called from any thread; `apply` and `onStatus` run on the
/// caller's thread, outside the lock. `start` checks on a timer of its own.
public final class BandwidthScheduler: Sendable {
    /// What the schedule says now.
    public struct Status: Sendable, Equatable, CustomStringConvertible {
        /// The limit in force (nil: none), bytes a second.
        public let limit: Int64?
        /// When it changes next, and to what; nil when it never does.
        public let nextChange: Date?
        public let nextLimit: Int64?

        /// A status of `limit` until `nextChange`, then `nextLimit`.
        ///
        /// - Parameters:
        ///   - limit: The limit in force, bytes a second, or nil for none.
        ///   - nextChange: When the schedule changes it next, or nil for never.
        ///   - nextLimit: The limit from then on, or nil for none.
        public init(limit: Int64?, nextChange: Date?, nextLimit: Int64?) {
            self.limit = limit
            self.nextChange = nextChange
            self.nextLimit = nextLimit
        }

        /// How much of the next change `summary` tells.
        public enum Detail: CaseIterable, Sendable {
            case whenAndNext, when, none
        }

        /// `limit` (the one in force: the schedule's, or one set by hand since) as a person reads
        /// it, with when the schedule changes it (`until 18:00`; `until Mon 08:00` a day or more
        /// from `now`) and to what (`then none`), as `detail` asks.
        ///
        /// - Parameters:
        ///   - limit: The limit in force.
        ///   - detail: How much of the next change to tell.
        ///   - now: The time now, to choose between a time and a day and time.
        ///   - timeZone: The zone the times are shown in.
        /// - Returns: Such as `limit 1.0 MiB/s until 18:00, then none`.
        public func summary(limit: Int64?, detail: Detail, now: Date, timeZone: TimeZone) -> String {
            let text = Status.limitText(limit)
            guard detail != .none, let change = nextChange else { return text }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.weekday, .hour, .minute], from: change)
            var when = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            if change.timeIntervalSince(now) >= 86_400 - 60 {
                let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
                when = days[((parts.weekday ?? 1) + 6) % 7] + " " + when
            }
            guard detail == .whenAndNext else { return "\(text) until \(when)" }
            return "\(text) until \(when), then " + (nextLimit.map { "\(ByteCount.format($0))/s" } ?? "none")
        }

        /// The whole summary, now, in the local time zone.
        public var description: String {
            summary(limit: limit, detail: .whenAndNext, now: Date(), timeZone: .current)
        }

        /// `limit 1.0 MiB/s`, or `no limit`.
        ///
        /// - Parameter limit: Bytes a second, or nil for none.
        /// - Returns: The text the header and messages show.
        public static func limitText(_ limit: Int64?) -> String {
            limit.map { "limit \(ByteCount.format($0))/s" } ?? "no limit"
        }
    }

    private let schedule: BandwidthSchedule
    private let fallback: Int64?
    private let calendar: Calendar
    private let clock: @Sendable () -> Date
    private let apply: @Sendable (Int64?) -> Void
    private let onStatus: @Sendable (Status) -> Void
    /// The status last reported, nil before the first check.
    private let reported = Mutex<Status?>(nil)
    private let stopped = Atomic(false)

    /// A scheduler of `schedule`; nothing is applied before the first `check` or `start`.
    ///
    /// - Parameters:
    ///   - schedule: The rules, in the user's words parsed.
    ///   - fallback: The limit when no rule matches and the schedule has no `else`.
    ///   - timeZone: What the rules' days and times mean; the machine's by default.
    ///   - clock: The time now (tests move it by hand).
    ///   - apply: Sets the queue's overall limit (nil: none), on the checking thread.
    ///   - onStatus: Gets the status each time the limit changes, on the checking thread.
    public init(
        _ schedule: BandwidthSchedule, fallback: Int64?, timeZone: TimeZone = .current,
        clock: @escaping @Sendable () -> Date = { Date() }, apply: @escaping @Sendable (Int64?) -> Void,
        onStatus: @escaping @Sendable (Status) -> Void
    ) {
        self.schedule = schedule
        self.fallback = fallback
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.clock = clock
        self.apply = apply
        self.onStatus = onStatus
    }

    /// The status at `date`.
    ///
    /// - Parameter date: The time to look at.
    /// - Returns: The schedule's limit then, and when and to what it changes next.
    public func status(at date: Date) -> Status {
        let minute = minuteOfWeek(date)
        let limit = schedule.limit(at: minute, fallback: fallback)
        guard let next = schedule.nextChange(after: minute, fallback: fallback) else {
            return Status(limit: limit, nextChange: nil, nextLimit: nil)
        }
        let startOfMinute = calendar.dateInterval(of: .minute, for: date)?.start ?? date
        return Status(
            limit: limit, nextChange: startOfMinute.addingTimeInterval(Double(next.minutes) * 60),
            nextLimit: next.limit)
    }

    /// Applies the schedule's limit if it changed since the last check (the first check always
    /// applies it), and reports the new status.
    public func check() {
        let now = status(at: clock())
        let changed = reported.withLock { last -> Bool in
            guard last != now else { return false }
            last = now
            return true
        }
        guard changed else { return }
        apply(now.limit)
        onStatus(now)
    }

    /// Checks now, then every `interval` seconds on a thread of its own until `stop`.
    ///
    /// - Parameter interval: Seconds between checks.
    public func start(every interval: Double = 10) {
        check()
        Thread.detachNewThread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let self, !self.stopped.load(ordering: .relaxed) else { return }
                self.check()
            }
        }
    }

    /// Stops the checks `start` began; the limit last applied stays. Any thread.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Minutes since Sunday 00:00 in the schedule's time zone.
    private func minuteOfWeek(_ date: Date) -> Int {
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        return ((parts.weekday ?? 1) - 1) * 24 * 60 + (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }
}
