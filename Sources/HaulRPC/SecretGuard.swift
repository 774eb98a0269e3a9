import Foundation
import Synchronization

// MARK: - SecretGuard

/// Checks the secret a call carries (`--rpc-secret`), in time that does not depend on where a
/// guess goes wrong, and slows down guessing without locking anyone out: after
/// `allowedFailures` wrong secrets from an address, the reply to each further wrong one is held
/// back (`Verdict.wrongSecret`'s `hold`, doubling up to `longestPause`) before it is sent. A
/// connection reads its next request only once its reply is out, and connections are capped
/// (`RPCServer.Configuration.maxConnections`), so guesses cannot outrun the holds; a client
/// with the right secret, on the same address as the guesser (every local client is
/// 127.0.0.1), is answered at once. Any thread.
package final class SecretGuard: Sendable {
    private let secret: [UInt8]?
    private let allowedFailures: Int
    private let firstPause: Duration
    private let longestPause: Duration
    /// Wrong secrets by address.
    private let failures = Mutex<[String: Int]>([:])

    /// What became of a call's secret.
    package enum Verdict: Equatable, Sendable {
        case allowed
        /// Refused; its reply waits `hold` first.
        case wrongSecret(hold: Duration)
    }

    /// `secret` nil: calls need none (a `token:` given anyway is ignored, as aria2 ignores it).
    package init(
        secret: String?, allowedFailures: Int = 5, firstPause: Duration = .milliseconds(100),
        longestPause: Duration = .seconds(2)
    ) {
        self.secret = secret.map { Array($0.utf8) }
        self.allowedFailures = allowedFailures
        self.firstPause = firstPause
        self.longestPause = longestPause
    }

    package var requiresSecret: Bool { secret != nil }

    /// Whether `token` (nil when the call carried none) opens the daemon to `peer`.
    package func check(_ token: String?, from peer: String) -> Verdict {
        guard let secret else { return .allowed }
        if let token, SecretGuard.equal(Array(token.utf8), secret) { return .allowed }
        let count = failures.withLock { failures in
            let count = (failures[peer] ?? 0) + 1
            // The table of addresses is bounded: a flood of addresses starts it over.
            if failures.count >= 4096, failures[peer] == nil { failures.removeAll() }
            failures[peer] = count
            return count
        }
        let over = count - allowedFailures
        guard over > 0 else { return .wrongSecret(hold: .zero) }
        return .wrongSecret(hold: min(firstPause * (1 << min(over - 1, 16)), longestPause))
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
