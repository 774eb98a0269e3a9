import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// HTTP authentication (Basic and Digest) and proxies (HTTP and SOCKS5), through the queue.
@Suite("Authentication and proxies")
struct AuthAndProxyTests {
    // MARK: - Authentication

    @Test(
        "the server's challenge picks Basic or Digest; the right password gets the body",
        arguments: ["basic", "digest"])
    func authenticates(scheme: String) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let user = "alice-\(UUID().uuidString.prefix(8))"
        let id = try harness.add(
            FaultServer.shared().url("/auth/\(scheme)?user=\(user)&pass=s3cret"),
            [("http-user", user), ("http-passwd", "s3cret"), ("out", "a.txt")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        #expect(String(decoding: try harness.contents("a.txt"), as: UTF8.self) == "welcome")
        #expect(AuthChallenge.seen.withLock { $0 }.contains(scheme.capitalized))
    }

    @Test("a wrong password fails the download with the 401, without retrying it")
    func wrongPassword() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(
            FaultServer.shared().url("/auth/digest?user=bob&pass=right"),
            [("http-user", "bob"), ("http-passwd", "wrong")])
        #expect(await harness.recorder.wait(for: [id]))
        let download = harness.recorder.latest(id)
        #expect(download?.state == .failed && download?.attempts == 1)
        #expect(download?.lastError?.contains("401") == true, "\(download?.lastError ?? "")")
        #expect(try harness.files() == [])
    }

    @Test("a netrc entry for the host answers the challenge; http-user wins over it")
    func netrcLogin() async throws {
        let netrc = Netrc(
            parsing: "machine 127.0.0.1 login carol password fromnetrc\ndefault login nobody password none")
        let harness = try QueueHarness(netrc: netrc)
        defer { harness.cleanUp() }
        let fromNetrc = try harness.add(
            FaultServer.shared().url("/auth/digest?user=carol&pass=fromnetrc"), [("out", "n.txt")])
        let own = try harness.add(
            FaultServer.shared().url("/auth/basic?user=dan&pass=own"),
            [("http-user", "dan"), ("http-passwd", "own"), ("out", "o.txt")])
        #expect(await harness.recorder.wait(for: [fromNetrc, own]))
        #expect(
            harness.recorder.latest(fromNetrc)?.state == .complete,
            "\(harness.recorder.latest(fromNetrc)?.lastError ?? "")")
        #expect(harness.recorder.latest(own)?.state == .complete, "\(harness.recorder.latest(own)?.lastError ?? "")")
        #expect(String(decoding: try harness.contents("n.txt"), as: UTF8.self) == "welcome")
    }

    @Test("credentials given after a 401 retry the download, which then completes")
    func credentialsAfterRefusal() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(FaultServer.shared().url("/auth/basic?user=erin&pass=later"), [("out", "l.txt")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.activity(id)?.response?.statusCode == 401)
        harness.queue.authenticate(id, user: "erin", password: "later")
        #expect(await harness.recorder.wait(for: [id]) { $0.state == .complete })
        #expect(String(decoding: try harness.contents("l.txt"), as: UTF8.self) == "welcome")
        #expect(harness.queue.download(id)?.options.httpUser == "erin")
    }

    // MARK: - Proxies

    @Test("all-proxy sends http downloads through an HTTP proxy, which resolves the host")
    func httpProxy() async throws {
        let server = try FaultServer.shared()
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let target = "http://haul-\(UUID().uuidString.prefix(8).lowercased()).invalid/bytes/5000"
        let id = harness.queue.add(
            QueueEntry(
                uris: [target],
                options: try options([
                    ("all-proxy", "127.0.0.1:\(server.port)"),
                    ("out", "p.bin"),
                ])))
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        #expect(try harness.contents("p.bin").count == 5000)
        #expect(server.fileRequests.proxied.contains(target))
    }

    @Test("no-proxy reaches the hosts it names directly")
    func bypass() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        // The proxy refuses every connection: only a direct request succeeds.
        let id = try harness.add(
            FaultServer.shared().url("/bytes/3000"),
            [("all-proxy", "http://127.0.0.1:1"), ("no-proxy", "127.0.0.1"), ("out", "d.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
    }

    @Test("a SOCKS5 proxy with a user and password carries the download (microsocks)")
    func socks5() async throws {
        let socks = try SocksProxy.start(user: "sock", password: "pw", outgoingAddress: "127.0.0.3")
        defer { socks.stop() }
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(
            FaultServer.shared().url("/peer"),
            [("all-proxy", "socks5h://sock:pw@127.0.0.1:\(socks.port)"), ("out", "peer.txt")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        // The proxy connects from the address it was told to use; a direct request would be 127.0.0.1.
        #expect(String(decoding: try harness.contents("peer.txt"), as: UTF8.self) == "127.0.0.3")
    }

    @Test("a proxy option that is not a proxy is refused with why")
    func badProxy() {
        var options = DownloadOptions()
        #expect(throws: OptionError.self) { try options.set("all-proxy", "file:///etc/passwd") }
        #expect(throws: OptionError.self) { try options.set("https-proxy", "") }
        #expect((try? options.set("http-proxy", "proxy.example:3128")) != nil)
        let refused = #expect(throws: OptionError.self) { try options.set("all-proxy", "u:hunter2@bad host:1") }
        #expect(refused.map { "\($0)" }?.contains("hunter2") == false)
    }

    @Test("a saved session keeps a proxy but not its password")
    func proxyPasswordNotSaved() throws {
        let options = try options([("all-proxy", "http://u:hunter2@proxy.example:3128")])
        let text = InputFile.render(
            [QueueEntry(uris: ["http://example.org/f"], options: options)], includingSecrets: false)
        #expect(text.contains("all-proxy=http://u@proxy.example:3128") && !text.contains("hunter2"), "\(text)")
    }

    @Test("a saved session keeps no password of a proxy written without a scheme")
    func schemelessProxyPasswordNotSaved() throws {
        let options = try options([("all-proxy", "u:hunter2@proxy.example:3128")])
        let text = InputFile.render(
            [QueueEntry(uris: ["http://example.org/f"], options: options)], includingSecrets: false)
        #expect(text.contains("all-proxy=u@proxy.example:3128") && !text.contains("hunter2"), "\(text)")
    }

    private func options(_ pairs: [(String, String)]) throws -> DownloadOptions {
        var options = DownloadOptions()
        for (name, value) in pairs { try options.set(name, value) }
        return options
    }
}
