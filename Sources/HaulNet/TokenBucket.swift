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
/// --max-overall-download-limit). Engine thread only.
final class SharedLimit {
    var bucket: TokenBucket?
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
