import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Failures numbered as aria2 numbers them, and which of them are worth another try.
@Suite("Error codes and retries")
struct ErrorCodeTests {
    @Test(
        "each failure gets aria2's code",
        arguments: [
            (RetryPolicy.Failure.status(404, retryAfter: nil), ErrorCode.notFound),
            (.status(410, retryAfter: nil), .notFound),
            (.status(401, retryAfter: nil), .authorization),
            (.status(403, retryAfter: nil), .authorization),
            (.status(503, retryAfter: "5"), .serverOverloaded),
            (.status(418, retryAfter: nil), .badResponse),
            (.transport(.cannotResolveHost), .nameResolution),
            (.transport(.timedOut), .timedOut),
            (.transport(.cannotConnect), .network),
            (.transport(.connectionLost), .network),
            (.transport(.remoteFileNotFound), .notFound),
            (.transport(.accessDenied), .authorization),
            (.transport(.tooManyRedirects(limit: 20)), .tooManyRedirects),
            (.transport(.tlsFailure), .unknown),
            (.transport(.tlsHandshake), .network),
            (.local(.checksumMismatch), .checksumMismatch),
        ] as [(RetryPolicy.Failure, ErrorCode)])
    func codes(failure: RetryPolicy.Failure, code: ErrorCode) {
        #expect(ErrorCode(failure) == code)
    }

    @Test("a full disk or quota is told apart from other write failures")
    func diskFull() {
        #expect(ErrorCode(fileError: ENOSPC) == .diskFull)
        #expect(ErrorCode(fileError: EDQUOT) == .diskFull)
        #expect(ErrorCode(fileError: EACCES) == .fileIO)
        #expect(ErrorCode(fileError: EACCES, otherwise: .cannotCreateFile) == .cannotCreateFile)
    }

    @Test("a failure that cannot heal is given up at once; a name that does not resolve gets one more try")
    func retries() {
        let policy = RetryPolicy(maxTries: 5, fixedWait: 1)
        #expect(policy.decide(attempt: 1, failure: .status(404, retryAfter: nil)) == .giveUp)
        #expect(policy.decide(attempt: 1, failure: .transport(.tlsFailure)) == .giveUp)
        #expect(policy.decide(attempt: 1, failure: .local(.diskFull)) == .giveUp)
        #expect(policy.decide(attempt: 1, failure: .transport(.cannotResolveHost)) == .retry(afterSeconds: 1))
        #expect(policy.decide(attempt: 2, failure: .transport(.cannotResolveHost)) == .giveUp)
        #expect(policy.decide(attempt: 4, failure: .transport(.connectionLost)) == .retry(afterSeconds: 1))
    }

    @Test("the manual's table lists every code once, right-aligned")
    func table() {
        let lines = ErrorCode.table.split(separator: "\n")
        #expect(lines.count == ErrorCode.allCases.count + 1)
        #expect(lines.allSatisfy { $0.count <= 76 && $0.dropFirst(3).first?.isNumber == true })
    }

    @Test("a failure's note for a queue row comes from the typed failure, not from its message")
    func notes() {
        #expect(ErrorCode.note(for: .status(404, retryAfter: nil), reason: "Not Found") == "404 Not Found")
        #expect(ErrorCode.note(for: .status(503, retryAfter: "5"), reason: "") == "503")
        #expect(ErrorCode.note(for: .transport(.cannotConnect), reason: nil) == "refused")
        #expect(ErrorCode.note(for: .transport(.cannotResolveHost), reason: nil) == "unknown host")
        #expect(ErrorCode.note(for: .local(.diskFull), reason: nil) == "disk full")
    }
}
