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

    /// Takes `count` bytes' worth of tokens and returns nil, or, when too few are left, takes
    /// nothing and returns how many nanoseconds to wait before asking again.
    mutating func take(_ count: Int, now: UInt64 = MonotonicClock.nanoseconds()) -> UInt64? {
        tokens = min(capacity, tokens + Double(now &- last) * Double(rate) / 1e9)
        last = now
        let needed = min(Double(count), capacity)
        if tokens >= needed {
            tokens -= Double(count)
            return nil
        }
        return UInt64((needed - tokens) / Double(rate) * 1e9) + 1
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
