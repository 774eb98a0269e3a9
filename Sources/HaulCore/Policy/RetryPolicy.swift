import Foundation
import HaulNet

// MARK: - RetryPolicy

/// Whether and when a failed attempt is tried again: timeouts, lost connections, 408, 429 and
/// 5xx are retried; other 4xx and local failures are not. Waits grow exponentially with jitter,
/// unless `retry-wait` fixes them or the server's Retry-After (429, 503) names one.
public struct RetryPolicy: Sendable {
    /// Attempts in all; 0 for no limit. aria2's default is 5.
    public var maxTries: Int
    /// A fixed wait in seconds between attempts, or nil for exponential backoff.
    public var fixedWait: Double?
    public var baseDelay: Double = 1
    public var maxDelay: Double = 60

    /// A policy of `maxTries` attempts.
    ///
    /// - Parameters:
    ///   - maxTries: Attempts in all (`-m`); 0 for no limit.
    ///   - fixedWait: Seconds between attempts (`--retry-wait`), or nil for exponential backoff.
    public init(maxTries: Int = 5, fixedWait: Double? = nil) {
        self.maxTries = maxTries
        self.fixedWait = fixedWait
    }

    /// What went wrong with one attempt.
    public enum Failure: Sendable, Equatable {
        case transport(ConnectionError.Kind)
        case status(Int, retryAfter: String?)
        /// Never retried: a failure here, not on the server or the network (a checksum
        /// mismatch, a full disk, a name that cannot be taken), with its code.
        case local(ErrorCode)
        /// Pieces whose digest was not theirs (`piece-hashes`): dropped, and fetched again from
        /// the next mirror.
        case badPieces
    }

    public enum Decision: Sendable, Equatable {
        case retry(afterSeconds: Double)
        case giveUp
    }

    /// The decision after attempt number `attempt` (from 1) failed with `failure`.
    func decide(
        attempt: Int, failure: Failure, now: Date = Date(),
        jitter: Double = Double.random(in: 0.8...1.2)
    ) -> Decision {
        guard isRetryable(failure, attempt: attempt), maxTries == 0 || attempt < maxTries else { return .giveUp }
        if case .status(let code, let retryAfter?) = failure, code == 429 || code == 503,
            let seconds = RetryPolicy.parseRetryAfter(retryAfter, now: now)
        {
            return .retry(afterSeconds: min(seconds, 3600))
        }
        if let fixedWait { return .retry(afterSeconds: fixedWait) }
        let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return .retry(afterSeconds: exponential * jitter)
    }

    func isRetryable(_ failure: Failure, attempt: Int) -> Bool {
        switch failure {
        case .transport(let kind):
            switch kind {
            case .timedOut, .connectionLost, .cannotConnect, .tlsHandshake, .transport: return true
            // A name that does not resolve rarely heals: one more try, for a DNS hiccup.
            case .cannotResolveHost: return attempt < 2
            default: return false
            }
        case .status(let code, _):
            return code == 408 || code == 429 || (500...599).contains(code)
        case .local:
            return false
        case .badPieces:
            return true
        }
    }

    /// Seconds from a Retry-After value: delta-seconds, or an HTTP-date (IMF-fixdate).
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - now: The time to count an HTTP-date from.
    /// - Returns: Seconds to wait (0 for a date in the past), or nil when the value is neither form.
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // Seconds are digits only (RFC 9110, 10.2.3): "Inf", "1e3" or "0x10", which Double reads,
        // are not; a number too long for a Double is the longest wait there is.
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return min(Double(trimmed) ?? .greatestFiniteMagnitude, .greatestFiniteMagnitude)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

// MARK: - RetryTimer

/// Runs work after a delay; the queue waits between attempts through it, so tests can use a
/// timer they fire by hand instead of sleeping.
public protocol RetryTimer: Sendable {
    /// Runs `work` after `seconds`, on any thread.
    ///
    /// - Parameters:
    ///   - seconds: The delay.
    ///   - work: What to run; once.
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void)
}

/// The real timer: Dispatch's global queue.
public struct DispatchRetryTimer: RetryTimer {
    /// The timer of Dispatch's global queue.
    public init() {}
    public func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
    }
}
