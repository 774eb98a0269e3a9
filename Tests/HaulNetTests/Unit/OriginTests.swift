import Foundation
import HaulNet
import Testing

/// `Origin`: the one normalisation of a host, from a URL or from a URI's text.
@Suite("Origin")
struct OriginTests {
    @Test(
        "scheme and host without regard to case, the scheme's own port as none, a login left out",
        arguments: [
            ("https://h.test/", "https://h.test"),
            ("https://h.test:443/x", "https://h.test"),
            ("HTTPS://H.TEST/", "https://h.test"),
            ("https://user:pw@h.test:443/", "https://h.test"),
            ("http://h.test:8080/a?b#c", "http://h.test:8080"),
            ("http://h.test:80", "http://h.test"),
            ("ftp://h.test:21/f", "ftp://h.test"),
            ("sftp://u@h.test:22/f", "sftp://h.test"),
            ("wss://h.test:443/jsonrpc", "wss://h.test"),
            ("http://[::1]:6800/jsonrpc", "http://[::1]:6800"),
            ("http://[::1]/", "http://[::1]"),
        ])
    func normalised(uri: String, expected: String) throws {
        #expect(Origin(uri: uri).description == expected)
        let url = try #require(URL(string: uri))
        #expect(Origin(url)?.description == expected, "from the URL")
        #expect(Origin(url) == Origin(uri: uri))
    }

    @Test("the port connections go to; text with no scheme is a host of its own")
    func ports() throws {
        #expect(Origin(uri: "https://h.test/").effectivePort == 443)
        #expect(Origin(uri: "http://h.test:8080/").effectivePort == 8080)
        #expect(Origin(uri: "gopher://h.test/").effectivePort == nil)
        #expect(Origin(uri: "Not A URI").description == "not a uri")
        #expect(Origin(uri: "http://h.test:99999/").port == nil, "no such port")
        #expect(Origin(try #require(URL(string: "file:///etc/passwd"))) == nil)
    }
}
