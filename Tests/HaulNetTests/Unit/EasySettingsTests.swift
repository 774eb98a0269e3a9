import Foundation
import Testing

@testable import HaulNet

/// The mapping from a request to libcurl's options, as a table, without libcurl.
@Suite("Easy handle settings")
struct EasySettingsTests {
    private func request(_ text: String, _ change: (inout Request) -> Void = { _ in }) throws -> Request {
        var request = Request(url: try #require(URL(string: text)))
        change(&request)
        return request
    }

    @Test("a plain GET: HTTP/2 where TLS offers it, waiting for multiplexing over TLS only; timeouts from the request")
    func plainGet() throws {
        let secure = try EasySettings(request("https://h.test/f") { $0.timeoutInterval = 30 })
        #expect(secure.httpVersion == .http2OverTLS && secure.waitsForMultiplexing)
        #expect(
            secure.connectTimeoutMilliseconds == 30_000 && secure.lowSpeedSeconds == 30 && secure.lowSpeedLimit == 1)
        #expect(secure.method == .get && secure.headerLines.isEmpty && secure.verifiesPeer)
        let plain = try EasySettings(request("http://h.test/f"))
        #expect(!plain.waitsForMultiplexing)
    }

    @Test("a split's helper: HTTP/1.1 on its own connection, a closed range, its own connect timeout")
    func helper() throws {
        let settings = try EasySettings(
            request("https://h.test/f") {
                $0.ownsConnection = true
                $0.byteRange = ByteRange(from: 100, through: 199)
                $0.connectTimeout = 4
                $0.lowestSpeed = 2048
            })
        #expect(settings.httpVersion == .http1 && !settings.waitsForMultiplexing)
        #expect(
            settings.range == "100-199" && settings.connectTimeoutMilliseconds == 4000 && settings.lowSpeedLimit == 2048
        )
    }

    @Test("login, proxy and its bypass, TLS, headers and the cache policy's")
    func everythingElse() throws {
        let settings = try EasySettings(
            request("http://h.test/f") {
                $0.credentials = Credentials(user: "ann", password: "pw")
                $0.proxies = Proxies(all: "socks5h://127.0.0.1:1080", bypass: "local")
                $0.tls = TLSOptions(verifyPeer: false, caFile: "/ca.pem")
                $0.headers.add("X-A", "1")
                $0.cachePolicy = .reloadIgnoringCache
                $0.method = "head"
            })
        #expect(settings.credentials == Credentials(user: "ann", password: "pw"))
        #expect(settings.proxy == "socks5h://127.0.0.1:1080" && settings.noProxy == "local")
        #expect(!settings.verifiesPeer && settings.caFile == "/ca.pem" && settings.method == .head)
        #expect(settings.headerLines == ["X-A: 1", "Cache-Control: no-cache", "Pragma: no-cache"])
    }

    @Test("a body: POST, or its own method; no Expect; chunked when its length is unknown")
    func uploads() throws {
        let post = try EasySettings(
            request("http://h.test/f") {
                $0.method = "POST"
                $0.body = .bytes([1, 2, 3])
            })
        #expect(post.method == .upload(method: nil, length: 3) && post.headerLines == ["Expect:"])
        let put = try EasySettings(
            request("http://h.test/f") {
                $0.method = "PUT"
                $0.body = .stream(length: nil, open: { nil })
            })
        #expect(put.method == .upload(method: "PUT", length: nil))
        #expect(put.headerLines == ["Expect:", "Transfer-Encoding: chunked"])
    }

    @Test("a scheme haul does not load, and a request only the cache may answer, are refused before libcurl")
    func refused() throws {
        #expect(throws: ConnectionError.self) { try EasySettings(request("file:///etc/passwd")) }
        #expect(throws: ConnectionError.self) {
            try EasySettings(request("http://h.test/f") { $0.cachePolicy = .returnCacheDataDontLoad })
        }
    }
}
