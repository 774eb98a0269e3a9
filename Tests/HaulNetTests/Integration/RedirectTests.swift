import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// Contract rule 1: redirects come first, and the delegate follows, rewrites or refuses each.
@Suite("Rule 1: redirects")
struct RedirectTests {
    @Test("every willSend comes before the response, one per hop")
    func redirectsComeFirst() async throws {
        let delegate = await load(try request("/chain/3"))
        let events = delegate.events
        #expect(
            Array(events.prefix(3)) == [
                .redirect(to: "/chain/2", status: 302), .redirect(to: "/chain/1", status: 302),
                .redirect(to: "/chain/0", status: 302),
            ])
        #expect(events[3] == .response(200))
        #expect(events.last == .finished)
        #expect(RecordingDelegate.orderViolation(events) == nil)
        #expect(TestPattern.matches(delegate.body) && delegate.body.count == 100)
        #expect(delegate.record.withLock { $0.response?.url.path } == "/chain/0")
    }

    @Test("the delegate may rewrite the next request")
    func delegateRewrites() async throws {
        let server = try FaultServer.shared()
        let delegate = await load(
            try request("/redirect/302?to=/bytes/10"),
            redirectDecision: { request, _ in
                var rewritten = request
                rewritten.url = server.url("/bytes/20")
                return rewritten
            })
        #expect(delegate.body.count == 20)
        #expect(delegate.events.last == .finished)
    }

    @Test("refusing delivers the redirect response and its body")
    func refusalDeliversRedirect() async throws {
        let delegate = await load(try request("/redirect/301?to=/bytes/10"), redirectDecision: { _, _ in nil })
        #expect(delegate.events.first == .redirect(to: "/bytes/10", status: 301))
        #expect(delegate.events.contains(.response(301)))
        #expect(String(decoding: delegate.body, as: UTF8.self) == "redirect body")
        #expect(delegate.events.last == .finished)
    }

    @Test(
        "method and body per status code",
        arguments: [
            (301, "0"), (302, "0"), (303, "0"), (307, "5"), (308, "5"),
        ])
    func methodPerStatus(code: Int, receivedLength: String) async throws {
        var post = try request("/redirect/\(code)?to=/upload")
        post.method = "POST"
        post.body = .bytes(Array("hello".utf8))
        let delegate = await load(post)
        #expect(delegate.record.withLock { $0.response?.headers["X-Received-Length"] } == receivedLength)
        #expect(delegate.events.last == .finished)
    }

    @Test("a relative Location resolves against the current URL")
    func relativeLocation() async throws {
        let delegate = await load(try request("/redirect/302?to=../bytes/5"))
        #expect(delegate.events.first == .redirect(to: "/bytes/5", status: 302))
        #expect(delegate.body.count == 5)
    }

    @Test("a loop ends in tooManyRedirects after the cap")
    func loopIsCapped() async throws {
        var looping = try request("/loop")
        looping.maxRedirects = 5
        let delegate = await load(looping)
        #expect(delegate.events.filter { if case .redirect = $0 { true } else { false } }.count == 5)
        #expect(delegate.events.last == .failed(.tooManyRedirects(limit: 5)))
        #expect(delegate.error?.message == "more than 5 redirects")
    }

    @Test(
        "a redirect to file:// is refused without asking the delegate",
        arguments: ["file:///etc/passwd", "gopher://127.0.0.1/x", "javascript:alert(1)"])
    func schemeRefused(target: String) async throws {
        let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let delegate = await load(try request("/redirect/302?to=\(escaped)"))
        let scheme = URL(string: target)?.scheme ?? ""
        #expect(delegate.events == [.failed(.redirectRefused(scheme: scheme))])
    }

    @Test("a rewrite to a refused scheme fails too")
    func rewriteToFileRefused() async throws {
        let delegate = await load(
            try request("/redirect/302?to=/bytes/1"),
            redirectDecision: { request, _ in
                var rewritten = request
                rewritten.url = URL(fileURLWithPath: "/etc/passwd")
                return rewritten
            })
        #expect(delegate.events.last == .failed(.redirectRefused(scheme: "file")))
    }

    @Test("credentials and Authorization stay on their origin")
    func credentialsStayOnOrigin() async throws {
        let server = try FaultServer.shared()
        // Credentials go once the server asks (a Basic challenge); the other origin echoes what it got.
        for (target, keeps) in [("/headers?challenge=basic", true), ("http://localhost:\(server.port)/headers", false)]
        {
            var secret = try request(
                "/redirect/302?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
            secret.credentials = Credentials(user: "u", password: "p")
            secret.headers.add("Cookie", "session=1")
            let delegate = await load(secret)
            let echoed = String(decoding: delegate.body, as: UTF8.self).lowercased()
            #expect(echoed.contains("authorization: basic") == keeps, "\(target): \(echoed)")
            #expect(echoed.contains("cookie: session=1") == keeps, "\(target): \(echoed)")
        }
    }

    @Test(
        "a Location's escapes stay single while the characters a URI may not hold are escaped",
        arguments: [
            ("/a%41|b{c}", "http://h.test/a%41%7Cb%7Bc%7D"),
            ("/p[1]?q=%20x^", "http://h.test/p%5B1%5D?q=%20x%5E"),
            ("http://[::1]:8080/p|q", "http://[::1]:8080/p%7Cq"),
            ("//other.test/%7E{x}", "http://other.test/%7E%7Bx%7D"),
            ("/caf\u{e9} x", "http://h.test/caf%C3%A9%20x"),
        ])
    func locationEscapes(location: String, expected: String) throws {
        let base = try #require(URL(string: "http://h.test/dir/file"))
        #expect(RedirectPolicy.resolve(location, against: base)?.absoluteString == expected)
    }
}
