import Foundation
import Synchronization

// MARK: - SecretGuard

/// Checks the secret a call carries (`--rpc-secret`), in time that does not depend on where a
/// guess goes wrong, and slows down a peer that keeps guessing: after `allowedFailures` wrong
/// secrets, every call from that peer is refused unchecked for a pause that doubles with each
/// further wrong one (up to `longestPause`). Any thread.
public final class SecretGuard: Sendable {
    private let secret: [UInt8]?
    private let allowedFailures: Int
    private let firstPause: Duration
    private let longestPause: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let peers = Mutex<[String: Record]>([:])

    private struct Record {
        var failures = 0
        var refusedUntil: ContinuousClock.Instant?
    }

    /// What became of a call's secret.
    public enum Verdict: Equatable, Sendable {
        case allowed
        case wrongSecret
        /// Refused unchecked: the peer guessed wrong too often; it may try again in this long.
        case slowedDown(Duration)
    }

    /// `secret` nil: calls need none (a `token:` given anyway is ignored, as aria2 ignores it).
    public init(
        secret: String?, allowedFailures: Int = 5, firstPause: Duration = .seconds(1),
        longestPause: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.secret = secret.map { Array($0.utf8) }
        self.allowedFailures = allowedFailures
        self.firstPause = firstPause
        self.longestPause = longestPause
        self.now = now
    }

    public var requiresSecret: Bool { secret != nil }

    /// Whether `token` (nil when the call carried none) opens the daemon to `peer`.
    public func check(_ token: String?, from peer: String) -> Verdict {
        guard let secret else { return .allowed }
        let time = now()
        if let until = peers.withLock({ $0[peer]?.refusedUntil }), until > time { return .slowedDown(until - time) }
        if let token, SecretGuard.equal(Array(token.utf8), secret) {
            peers.withLock { $0[peer] = nil }
            return .allowed
        }
        peers.withLock { peers in
            var record = peers[peer] ?? Record()
            record.failures += 1
            let over = record.failures - allowedFailures
            if over > 0 {
                let pause = firstPause * (1 << min(over - 1, 16))
                record.refusedUntil = time + min(pause, longestPause)
            }
            peers[peer] = record
        }
        return .wrongSecret
    }

    /// Whether `given` equals `secret`, comparing every byte of the secret whatever `given` is.
    static func equal(_ given: [UInt8], _ secret: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == secret.count ? 0 : 1
        for index in secret.indices {
            difference |= secret[index] ^ (index < given.count ? given[index] : ~secret[index])
        }
        return difference == 0
    }
}
