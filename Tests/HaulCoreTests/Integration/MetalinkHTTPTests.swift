import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// Metalink/HTTP (RFC 6249): mirrors from `Link: rel=duplicate`, the digest from `Digest`, read
/// as tables and then followed by a real download against the fault server.
@Suite("Metalink/HTTP")
struct MetalinkHTTPTests {
    @Test(
        "duplicates by pri, then in order; other relations, unloadable schemes and bad values are not mirrors",
        arguments: [
            (
                ["<http://a/f>; rel=duplicate; pri=2, <https://b/f>; rel=\"duplicate\"; pri=1; geo=de"],
                ["https://b/f", "http://a/f"]
            ),
            (["<http://a/f>; rel=describedby", "<ftp://c/f>; rel=duplicate"], ["ftp://c/f"]),
            (
                [
                    "<file:///etc/passwd>; rel=duplicate", "<sftp://h/f>; rel=duplicate",
                    "<javascript:x>; rel=duplicate",
                ], []
            ),
            (["<http://a/f,g>; rel=duplicate; title=\"a, b\"", "garbage", "<http://a/x>"], ["http://a/f,g"]),
        ] as [([String], [String])])
    func duplicates(values: [String], expected: [String]) {
        #expect(MetalinkHTTP.duplicates(in: values) == expected)
    }

    @Test("the strongest digest haul knows; a value of the wrong length is not one")
    func digest() {
        let sha256 = Data(repeating: 0xab, count: 32).base64EncodedString()
        let md5 = Data(repeating: 0x01, count: 16).base64EncodedString()
        #expect(
            MetalinkHTTP.digest(in: ["MD5=\(md5), SHA-256=\(sha256)"])?.description
                == "sha-256=" + String(repeating: "ab", count: 32))
        #expect(MetalinkHTTP.digest(in: ["md5=\(md5)", "UNIXsum=30637"])?.algorithm == .md5)
        #expect(MetalinkHTTP.digest(in: ["SHA-256=\(md5)"]) == nil, "16 bytes are not a SHA-256")
        #expect(MetalinkHTTP.digest(in: ["SHA-256=not base64!"]) == nil)
    }

    private func splitting() throws -> DownloadOptions {
        var options = DownloadOptions()
        try options.set("split", "4")
        try options.set("max-connection-per-server", "2")
        try options.set("min-split-size", "1M")
        return options
    }

    @Test("a Link header's mirror serves part of a split download; a wrong Digest fails the file")
    func followed() async throws {
        let harness = try QueueHarness(defaults: try splitting())
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let (primary, mirror) = (UUID().uuidString, UUID().uuidString)
        let mirrorURL = server.url("/file/8000000?key=\(mirror)").absoluteString
        var components = URLComponents(url: server.url("/file/8000000"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "key", value: primary), URLQueryItem(name: "pace", value: "131072"),
            URLQueryItem(name: "duplicate", value: mirrorURL),
        ]
        let id = try harness.add(try #require(components?.url), [("out", "m.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete, "\(harness.recorder.latest(id)?.lastError ?? "")")
        let data = try harness.contents("m.bin")
        #expect(data.count == 8_000_000 && TestPattern.matches(data))
        #expect(server.fileRequests.requests(for: mirror).count >= 1, "the mirror served a segment")
        #expect(harness.recorder.latest(id)?.uris.contains(mirrorURL) == true)

        let wrong = Data(repeating: 0, count: 32).base64EncodedString()
        components?.queryItems = [
            URLQueryItem(name: "key", value: UUID().uuidString),
            URLQueryItem(name: "digest", value: "SHA-256=\(wrong)"),
        ]
        let checked = try harness.add(try #require(components?.url), [("out", "d.bin")])
        #expect(await harness.recorder.wait(for: [checked]))
        #expect(harness.recorder.latest(checked)?.state == .failed)
        #expect(harness.recorder.latest(checked)?.lastError?.contains("checksum mismatch") == true)
    }
}
