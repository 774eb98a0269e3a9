import Foundation
import HaulTestSupport
import HaulText
import Synchronization
import Testing

@testable import HaulNet

// MARK: - Authentication before the response (contract rule 2)

@Suite("The delegate answers a demand for credentials before any response")
struct ChallengeTests {
    @Test("a 401 is put to the delegate first; its credentials get the resource", arguments: ["basic", "digest"])
    func credentialAnswers(scheme: String) async throws {
        let asked = Mutex<[AuthenticationChallenge]>([])
        let delegate = await load(
            try request("/auth/\(scheme)?user=ann&pass=s3cret"),
            challengeDecision: { challenge in
                asked.withLock { $0.append(challenge) }
                return .useCredential(Credentials(user: "ann", password: "s3cret"))
            })
        #expect(delegate.events.first == .challenge(status: 401, previousFailures: 0))
        #expect(delegate.events.filter { if case .response = $0 { true } else { false } } == [.response(200)])
        #expect(String(decoding: delegate.body, as: UTF8.self) == "welcome")
        #expect(delegate.events.last == .finished)
        #expect(RecordingDelegate.orderViolation(delegate.events) == nil)
        let challenge = try #require(asked.withLock { $0.first })
        #expect(challenge.schemes.map { $0.lowercased() } == [scheme])
        #expect(challenge.realm == "haul-tests")
        #expect(!challenge.isProxy && challenge.proposedCredential == nil)
    }

    @Test("default handling delivers the 401 with its body")
    func defaultHandling() async throws {
        let delegate = await load(try request("/auth/basic?user=ann&pass=s3cret"))
        #expect(delegate.events.first == .challenge(status: 401, previousFailures: 0))
        #expect(delegate.events.contains(.response(401)))
        #expect(String(decoding: delegate.body, as: UTF8.self) == "who are you?")
        #expect(delegate.events.last == .finished)
    }

    @Test("cancel fails the load without a response")
    func cancelFails() async throws {
        let delegate = await load(try request("/auth/digest?user=ann&pass=s3cret"), challengeDecision: { _ in .cancel })
        #expect(delegate.events == [.challenge(status: 401, previousFailures: 0), .failed(.authenticationCancelled)])
    }

    @Test("refused credentials are counted, and the delegate is asked again")
    func refusedCredentials() async throws {
        var withWrong = try request("/auth/digest?user=ann&pass=s3cret")
        withWrong.credentials = Credentials(user: "ann", password: "wrong")
        let delegate = await load(
            withWrong,
            challengeDecision: { challenge in
                challenge.previousFailureCount < 2
                    ? .useCredential(Credentials(user: "ann", password: "still wrong")) : .performDefaultHandling
            })
        #expect(
            delegate.events.prefix(2) == [
                .challenge(status: 401, previousFailures: 1), .challenge(status: 401, previousFailures: 2),
            ])
        #expect(delegate.events.contains(.response(401)))
        #expect(delegate.events.last == .finished)
    }

    @Test("a request's own right credentials never reach the delegate")
    func ownCredentialsSuffice() async throws {
        var request = try request("/auth/digest?user=ann&pass=s3cret")
        request.credentials = Credentials(user: "ann", password: "s3cret")
        let delegate = await load(request, challengeDecision: { _ in .cancel })
        #expect(!delegate.events.contains { if case .challenge = $0 { true } else { false } })
        #expect(delegate.events.contains(.response(200)))
    }

    @Test("a proxy's 407 is a proxy challenge; its credentials go to the proxy")
    func proxyChallenge() async throws {
        let server = try FaultServer.shared()
        var request = Request(
            url: try #require(URL(string: "http://authproxy-\(UUID().uuidString.prefix(8)).invalid/bytes/64")))
        request.proxies = Proxies(http: "http://127.0.0.1:\(server.port)")
        let proxied = Mutex<Bool?>(nil)
        let delegate = await load(
            request,
            challengeDecision: { challenge in
                proxied.withLock { $0 = challenge.isProxy }
                return .useCredential(Credentials(user: "proxy", password: "pw"))
            })
        #expect(proxied.withLock { $0 } == true)
        #expect(delegate.events.first == .challenge(status: 407, previousFailures: 0))
        #expect(delegate.events.contains(.response(200)))
        #expect(delegate.body == Data(TestPattern.bytes(count: 64)))
    }

    @Test("a proxy that cannot be reached is named as the proxy, without its password")
    func unreachableProxy() async throws {
        var through = try request("/bytes/10")
        through.proxies.all = "http://ann:pr0xy-pw@127.0.0.1:1"
        let delegate = await load(through)
        #expect(delegate.events == [.failed(.cannotConnect)])
        let text = delegate.error?.description ?? ""
        #expect(
            text.contains("through the proxy http://127.0.0.1:1") && !text.contains("pr0xy-pw")
                && !text.contains("ann"), "\(text)")
        // A host the bypass list names is reached directly: its failure names no proxy.
        var direct = Request(url: URL(string: "http://127.0.0.1:1/x")!)
        direct.proxies = Proxies(all: "http://127.0.0.1:2", bypass: "example.org, 127.0.0.1")
        let bypassed = await load(direct)
        #expect(bypassed.events == [.failed(.cannotConnect)])
        #expect(
            bypassed.error?.description.contains("through the proxy") == false, "\(bypassed.error?.description ?? "")")
        #expect(
            Proxies(all: "p:1", bypass: ".example.org").proxyUsed(for: URL(string: "http://a.example.org/")!) == nil)
        #expect(
            Proxies(all: "p:1", bypass: "example.org").proxyUsed(for: URL(string: "http://notexample.org/")!) == "p:1")
        #expect(Proxies(all: "p:1", bypass: "*").proxyUsed(for: URL(string: "http://h/")!) == nil)
        #expect(URIText.withoutUserInfo("u:p@proxy.example:3128") == "proxy.example:3128")
        #expect(URIText.withoutUserInfo("socks5h://u@[::1]:1080") == "socks5h://[::1]:1080")
    }

    @Test("challenge headers name their schemes and realm")
    func parsing() {
        #expect(
            AuthenticationChallenge.schemes(in: "Digest realm=\"a, b\", qop=\"auth\", Basic realm=\"y\"") == [
                "Digest", "Basic",
            ])
        #expect(AuthenticationChallenge.realm(in: "Basic Realm=\"files\"") == "files")
        #expect(AuthenticationChallenge.realm(in: "Bearer") == nil)
    }
}
