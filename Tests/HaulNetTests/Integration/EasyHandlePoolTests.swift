import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// Easy handles are kept for the next transfer only when their last hop ended well, and a
/// kept one carries nothing of its last transfer into the next.
@Suite("Easy handle pool")
struct EasyHandlePoolTests {
    @Test("after a stall, a dropped connection, a login and redirects, every next load ends whole and carries no login")
    func reuseAfterEveryEnding() async throws {
        var stalled = try request("/stall")
        stalled.timeoutInterval = 1
        #expect(await load(stalled).events.last == .failed(.timedOut))
        #expect(await load(try request("/drop/300000?sent=70000")).events.last == .failed(.connectionLost))
        let login = await load(
            try request("/auth/basic?user=u&pass=p"),
            challengeDecision: { _ in .useCredential(Credentials(user: "u", password: "p")) })
        #expect(login.events.last == .finished && String(decoding: login.body, as: UTF8.self) == "welcome")
        // The next transfers may run on the login's handle: no credential goes with them.
        for _ in 0..<4 {
            let headers = String(decoding: await load(try request("/headers")).body, as: UTF8.self)
            #expect(!headers.lowercased().contains("authorization"), "\(headers)")
        }
        let redirected = await load(try request("/chain/2"))
        #expect(redirected.events.last == .finished && redirected.body.count == 100)
        for size in [1, 5000, 70_000, 16_384, 3] + Array(repeating: 2048, count: 20) {
            let loaded = await load(try request("/bytes/\(size)"))
            #expect(loaded.events.last == .finished, "\(size): \(loaded.events)")
            #expect(loaded.body.count == size && TestPattern.matches(loaded.body), "\(size)")
        }
    }
}
