import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// What a download's detail view keeps of its last response: the headers a person asks about,
/// each once, under its usual name, in one order; the others, and cookies, not.
@Suite("Response summary")
struct ResponseSummaryTests {
    @Test("the kept headers, first value of each whatever its case, in the kept order; the rest dropped")
    func keptHeaders() throws {
        var headers = HTTPHeaders()
        headers.add("server", "nginx")
        headers.add("SET-COOKIE", "session=secret")
        headers.add("content-length", "16384")
        headers.add("X-Other", "dropped")
        headers.add("ETAG", "\"abc\"")
        headers.add("Content-Length", "1")
        headers.add("Content-Type", "application/octet-stream")
        headers.add("Etag-Like", "dropped")
        let url = try #require(URL(string: "https://example.test/f"))
        let summary = ResponseSummary(Response(url: url, statusCode: 200, headers: headers), redirectChain: [])
        #expect(summary.headers.map(\.name) == ["Content-Type", "Content-Length", "ETag", "Server"])
        #expect(summary.headers.map(\.value) == ["application/octet-stream", "16384", "\"abc\"", "nginx"])
        #expect(summary.header("Content-Length") == "16384")
        #expect(summary.header("Set-Cookie") == nil)
    }
}
