import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// TLS against a real nginx with a certificate made at test time.
@Suite("HTTPS", .serialized)
struct HTTPSTests {
    static let body = TestPattern.bytes(count: 250_000)

    @Test("verification succeeds with the CA given, over HTTP/2; fails clearly without it")
    func verification() async throws {
        let nginx = try NginxServer.start(files: ["file.bin": HTTPSTests.body])
        defer { nginx.stop() }

        var trusted = Request(url: nginx.url("/file.bin"))
        trusted.tls.caFile = nginx.caFile
        let ok = await load(trusted)
        #expect(ok.events.last == .finished)
        #expect(ok.body == Data(HTTPSTests.body))
        #expect(ok.record.withLock { $0.response?.httpVersion } == "HTTP/2")
        // The handshake's agreement on HTTP/2 is told first, once, before the response.
        #expect(ok.events.prefix(2) == [.multiplexing("127.0.0.1:\(nginx.port)"), .response(200)])
        var own = trusted
        own.ownsConnection = true
        let overHTTP1 = await load(own)
        #expect(overHTTP1.record.withLock { $0.response?.httpVersion } == "HTTP/1.1")
        #expect(overHTTP1.events.first == .response(200))

        let untrusted = await load(Request(url: nginx.url("/file.bin")))
        let error = try #require(untrusted.error)
        #expect(error.kind == .tlsFailure)
        #expect(error.curlCode == 60)
        #expect(error.description.contains("could not be verified"))
        #expect(error.advice.contains("--ca-certificate"))

        var unchecked = Request(url: nginx.url("/file.bin"))
        unchecked.tls.verifyPeer = false
        #expect(await load(unchecked).events.last == .finished)
    }

    @Test("a TLS handshake with a server that speaks plain HTTP fails as a handshake, not as a certificate")
    func handshakeWithPlainServer() async throws {
        let plain = try FaultServer.shared().url("/bytes/10")
        var components = try #require(URLComponents(url: plain, resolvingAgainstBaseURL: false))
        components.scheme = "https"
        let delegate = await load(Request(url: try #require(components.url)))
        let error = try #require(delegate.error)
        #expect(error.kind == .tlsHandshake && error.curlCode == 35, "\(error)")
        #expect(error.description.contains("handshake") && !error.description.contains("certificate could not"))
        #expect(error.advice.contains("http://"))
    }

    @Test("many loads to one HTTP/2 host all complete")
    func multiplexed() async throws {
        let nginx = try NginxServer.start(files: ["file.bin": HTTPSTests.body])
        defer { nginx.stop() }
        await withTaskGroup(of: Data.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    var request = Request(url: nginx.url("/file.bin"))
                    request.tls.caFile = nginx.caFile
                    return await load(request).body
                }
            }
            for await data in group { #expect(data == Data(HTTPSTests.body)) }
        }
    }
}
