import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// A failure says what happened: too large headers are not a lost connection, a login that
/// was never sent was not refused, a partial file someone else made is not "kept data".
@Suite("Failure messages that say what happened")
struct FailureMessageTests {
    @Test(
        "response headers past the limit, many lines or one huge line, fail as a bad response at once",
        arguments: [
            "/bigheaders/400", "/bigheaders/1?line=200000",
        ])
    func largeHeaders(path: String) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(try FaultServer.shared().url(path), [("max-tries", "3")])
        #expect(await harness.recorder.wait(for: [id]))
        let failed = try #require(harness.recorder.latest(id))
        #expect(failed.state == .failed && failed.attempts == 1, "\(failed)")
        #expect(failed.lastError?.contains("breaks its protocol") == true, "\(failed.lastError ?? "")")
        #expect(failed.lastError?.contains("connection was lost") == false)
    }

    @Test("a 401 says whether a login was refused, missing, or never sent for a scheme haul cannot answer")
    func loginAdvice() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let none = try harness.add(server.url("/auth/basic?user=a&pass=b"))
        let wrong = try harness.add(
            server.url("/auth/basic?user=a&pass=b"), [("http-user", "a"), ("http-passwd", "nope")])
        let bearer = try harness.add(server.url("/auth/bearer"), [("http-user", "a"), ("http-passwd", "b")])
        #expect(await harness.recorder.wait(for: [none, wrong, bearer]))
        #expect(harness.recorder.latest(none)?.lastError?.contains("give a user name and password") == true)
        #expect(harness.recorder.latest(wrong)?.lastError?.contains("were refused") == true)
        let message = harness.recorder.latest(bearer)?.lastError ?? ""
        #expect(
            message.contains("were not sent") && message.lowercased().contains("bearer")
                && !message.contains("refused"), "\(message)")
    }

    @Test("FTP's 550 and a refused login are their own kinds, with advice that fits")
    func curlCodes() {
        let missing = ConnectionError(kind: .remoteFileNotFound, url: URL(string: "ftp://h/f"))
        #expect(missing.description.contains("no such file") && missing.description.contains("check the path"))
        #expect(!missing.description.contains("check the network"))
        #expect(!RetryPolicy().isRetryable(.transport(.remoteFileNotFound), attempt: 1))
        #expect(!RetryPolicy().isRetryable(.transport(.accessDenied), attempt: 1))
        #expect(!RetryPolicy().isRetryable(.transport(.badResponse), attempt: 1))
        // A certificate refused stays refused; a handshake broken off may go through next time.
        #expect(!RetryPolicy().isRetryable(.transport(.tlsFailure), attempt: 1))
        #expect(RetryPolicy().isRetryable(.transport(.tlsHandshake), attempt: 1))
    }
}
