import Foundation

// MARK: - TokenBucket

/// A receive-speed cap: `rate` bytes a second, with a burst of a tenth of a second (at least one
/// libcurl callback's worth, 16 KiB, so a capped transfer always moves). libcurl's own
/// CURLOPT_MAX_RECV_SPEED_LARGE lets a short transfer through at full speed, so haul keeps its own.
struct TokenBucket {
    static let minimumBurst = 16 * 1024

    let rate: Int64
    private let capacity: Double
    private var tokens: Double
    private var last: UInt64

    init(rate: Int64, now: UInt64 = MonotonicClock.nanoseconds()) {
        self.rate = max(rate, 1)
        capacity = max(Double(self.rate) / 10, Double(TokenBucket.minimumBurst))
        tokens = capacity
        last = now
    }

    /// Refills, then returns nil when `count` bytes may pass now, or how many nanoseconds to
    /// wait before asking again. Takes nothing: `take` does, once every limit has agreed.
    mutating func delay(for count: Int, now: UInt64 = MonotonicClock.nanoseconds()) -> UInt64? {
        tokens = min(capacity, tokens + Double(now &- last) * Double(rate) / 1e9)
        last = now
        let needed = min(Double(count), capacity)
        return tokens >= needed ? nil : UInt64((needed - tokens) / Double(rate) * 1e9) + 1
    }

    /// Spends `count` bytes' worth of tokens (possibly going below zero for a large piece).
    mutating func take(_ count: Int) {
        tokens -= Double(count)
    }
}

// MARK: - SharedLimit

/// The engine-wide receive cap that every transfer draws from (aria2's
/// --max-overall-download-limit), shared fairly: a transfer the cap holds back joins a line,
/// and tokens go to the line's first, which then goes to the back. So every transfer that
/// wants more gets its turn in order, and a transfer that wants less (its server is slow)
/// never stands in line: its share goes to the others. Engine thread only.
final class SharedLimit {
    private var bucket: TokenBucket?
    /// Transfers (by connection id) waiting for the cap, in the order they were held back.
    private var line: [UInt64] = []

    /// Whether a cap is set.
    var isSet: Bool { bucket != nil }

    /// Sets the cap (nil: none); the line starts afresh.
    func setRate(_ rate: Int64?) {
        bucket = rate.map { TokenBucket(rate: $0) }
        line.removeAll()
    }

    /// Nil when transfer `id` may take `count` bytes now, else how many nanoseconds to wait
    /// before asking again. Takes nothing: `take` does, once every limit has agreed.
    func delay(for id: UInt64, count: Int, now: UInt64) -> UInt64? {
        guard var bucket else { return nil }
        defer { self.bucket = bucket }
        let wait = bucket.delay(for: count, now: now)
        if let first = line.first, first != id {
            let position = line.firstIndex(of: id) ?? line.count
            if position == line.count { line.append(id) }
            // Behind others: asked again about when those ahead have had their turns.
            let turns = UInt64(Double(count) * Double(position) / Double(bucket.rate) * 1e9)
            return max(wait ?? 0, turns, 1_000_000)
        }
        if let wait {
            if line.isEmpty { line.append(id) }
            return wait
        }
        return nil
    }

    /// Spends `count` bytes of the cap for transfer `id`, which leaves the front of the line.
    func take(_ count: Int, by id: UInt64) {
        bucket?.take(count)
        if line.first == id { line.removeFirst() }
    }

    /// Transfer `id` has ended, or waits for a cap of its own: it stands in line no more.
    func leave(_ id: UInt64) {
        line.removeAll { $0 == id }
    }
}

// MARK: - MonotonicClock

enum MonotonicClock {
    /// Nanoseconds of CLOCK_MONOTONIC_COARSE (cheap enough for every callback; ~4 ms steps).
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
