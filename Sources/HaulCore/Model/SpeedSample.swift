// MARK: - SpeedSample

/// A speed as bytes that reached the file over the last two seconds, whatever a limiter or a
/// bursty server does in between: a mark of the byte count is taken at most every 0.2 s, and
/// the speed is the bytes since the oldest mark in the window over the time since it. (An
/// average of rates, each over a stretch of its own length, counted a burst let through a cap
/// as often as the silence after it, and showed 390 KiB/s for a file growing at 200.) Used for
/// each download, for each connection of a split one, and for all of `haul get`'s downloads.
///
/// **Threading:** a value; its owner keeps it under its lock.
public struct SpeedSample: Sendable {
    static let interval = 0.2
    static let window = 2.0
    static let idleAfter = 1.0

    /// Byte counts at past times, oldest first, the first at or before the window's start.
    private var marks: [(time: Double, bytes: Int64)]
    /// When the attempt's first progress came.
    let startedAt: Double

    /// A sample whose first mark is `bytes` at `time` (seconds, a monotonic clock).
    ///
    /// - Parameters:
    ///   - bytes: The bytes done so far.
    ///   - time: Now, in seconds of a monotonic clock.
    public init(bytes: Int64, at time: Double) {
        marks = [(time, bytes)]
        startedAt = time
    }

    /// Marks `bytes` at `now` when the interval has passed since the last mark, and sets
    /// `speed` to the rate over the window.
    ///
    /// - Parameters:
    ///   - speed: The speed to update, bytes a second; left alone until an interval has passed.
    ///   - bytes: The bytes done so far.
    ///   - now: Now, in seconds of the same clock.
    public mutating func measure(_ speed: inout Double, bytes: Int64, at now: Double) {
        guard let last = marks.last, now - last.time >= SpeedSample.interval else { return }
        marks.append((now, bytes))
        while marks.count > 2, now - marks[1].time >= SpeedSample.window { marks.removeFirst() }
        let first = marks[0]
        speed = max(0, (Double(bytes) - Double(first.bytes)) / (now - first.time))
    }

    /// A second after the last mark with no byte since, the speed is 0 and the window starts
    /// again: what a row shows is what is happening, not what last happened (a transfer held
    /// back by a cap, or stalled).
    mutating func settle(_ speed: inout Double, bytes: Int64, at now: Double) {
        guard let last = marks.last, now - last.time >= SpeedSample.idleAfter else { return }
        if bytes == last.bytes {
            speed = 0
            marks = [(now, bytes)]
        } else {
            measure(&speed, bytes: bytes, at: now)
        }
    }
}
