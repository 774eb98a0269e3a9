import Foundation
import HaulText
import Testing

@testable import HaulNet

@Suite("Response and header parsing")
struct ResponseTests {
    // A literal that is a URL; the fallback only keeps a force unwrap out (the tests would fail on it).
    private let url = URL(string: "http://example.test/dir/report%20final.pdf?x=1") ?? URL(fileURLWithPath: "/")

    @Test("filename* (RFC 5987) wins over filename")
    func extendedFilename() {
        let header = #"attachment; filename="fallback.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt"#
        #expect(ContentDisposition.filename(in: header) == "€ rates.txt")
    }

    @Test("quoted filename with escapes and a semicolon inside")
    func quotedFilename() {
        #expect(ContentDisposition.filename(in: #"attachment; filename="a\"b;c.txt""#) == #"a"b;c.txt"#)
        #expect(ContentDisposition.filename(in: "inline; filename=plain.bin") == "plain.bin")
        #expect(ContentDisposition.filename(in: "attachment") == nil)
        #expect(ContentDisposition.filename(in: "attachment; filename*=UTF-8''%ZZ; filename=ok.txt") == "ok.txt")
        #expect(ContentDisposition.filename(in: "attachment; FILENAME*=iso-8859-1'en'caf%E9.txt") == "café.txt")
    }

    @Test("suggestedFilename falls back to the percent-decoded URL path")
    func suggestedFromURL() {
        #expect(Response(url: url, statusCode: 200).suggestedFilename == "report final.pdf")
        #expect(Response(url: URL(string: "http://example.test/")!, statusCode: 200).suggestedFilename == nil)
        let named = Response(url: url, statusCode: 200, headers: ["Content-Disposition": "attachment; filename=x.iso"])
        #expect(named.suggestedFilename == "x.iso")
    }

    @Test("length, MIME type, charset and validators")
    func headerFacts() {
        let response = Response(
            url: url, statusCode: 200,
            headers: [
                "Content-Length": "42", "Content-Type": "Text/HTML; charset=utf-8", "ETag": "\"abc\"",
                "Last-Modified": "Tue, 01 Sep 2026 10:00:00 GMT",
            ])
        #expect(response.expectedContentLength == 42)
        #expect(response.mimeType == "text/html")
        #expect(response.textEncodingName == "utf-8")
        #expect(response.entityTag == "\"abc\"")
        #expect(response.lastModified == "Tue, 01 Sep 2026 10:00:00 GMT")
        #expect(Response(url: url, statusCode: 200, headers: ["Content-Length": "-5"]).expectedContentLength == -1)
        // Past 8 PiB (FileSize.largest) no file has that length: unknown.
        for length in ["9000000000000000000", "9007199254740993"] {
            let response = Response(url: url, statusCode: 200, headers: ["Content-Length": length])
            #expect(response.expectedContentLength == -1)
        }
        #expect(
            Response(url: url, statusCode: 200, headers: ["Content-Length": "9007199254740992"]).expectedContentLength
                == FileSize.largest)
        #expect(
            Response(url: url, statusCode: 200, headers: ["Content-Length": "9", "Content-Encoding": "gzip"])
                .expectedContentLength == -1)
    }

    @Test("status line parsing, folded headers, standard reasons for HTTP/2")
    func responseHead() {
        var head = ResponseHead()
        head.begin(statusLine: "HTTP/1.1 404 Not Found")
        head.add(headerLine: "X-Long: one")
        head.add(headerLine: "  two")
        head.add(headerLine: "Set-Cookie: a=1")
        head.add(headerLine: "Set-Cookie: b=2")
        head.add(headerLine: "garbage without colon")
        let response = head.response(url: url)
        #expect(response.statusCode == 404 && response.reasonPhrase == "Not Found")
        #expect(response.headers["x-long"] == "one two")
        #expect(response.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        head.begin(statusLine: "HTTP/2 206")
        #expect(head.response(url: url).reasonPhrase == "Partial Content")
    }

    @Test("header lines read as libcurl's bytes: line ends, white space, empty names, bad UTF-8, odd status lines")
    func responseHeadBytes() {
        func lines(_ status: String, _ fields: [[UInt8]]) -> Response {
            var head = ResponseHead()
            Array(status.utf8).withUnsafeBytes { head.begin(statusLine: ResponseHead.withoutLineEnd($0)) }
            for field in fields { field.withUnsafeBytes { head.add(headerLine: ResponseHead.withoutLineEnd($0)) } }
            return head.response(url: url)
        }
        let response = lines(
            "HTTP/1.1  200   All   Fine \r\n",
            [
                Array("Content-Type:\ttext/plain \r\n".utf8), Array(" \tfolded\r\n".utf8), Array(": no name\r\n".utf8),
                Array("Empty:\r\n".utf8), Array("X-Bad: a".utf8) + [0xFF, 0xFE] + Array("b\r\n".utf8),
                Array("\r\n".utf8), Array("No colon here\n".utf8),
            ])
        #expect(response.httpVersion == "HTTP/1.1" && response.statusCode == 200)
        #expect(response.reasonPhrase == "All   Fine")
        #expect(response.headers.fields.map(\.name) == ["Content-Type", "Empty", "X-Bad"])
        #expect(response.headers["content-type"] == "text/plain folded" && response.headers["Empty"] == "")
        #expect(response.headers["X-Bad"] == "a\u{FFFD}\u{FFFD}b")
        #expect(lines("HTTP/1.1 abc", []).statusCode == 0 && lines("HTTP/1.1", []).statusCode == 0)
        #expect(lines("HTTP/1.1 302", []).reasonPhrase == "Found")
    }

    @Test("Content-Length reads as Int64(_:) reads the trimmed text, and only when not negative")
    func contentLengthAsInt64() {
        let texts = [
            "0", "5", " 7 ", "\t42\r\n", "+3", "-0", "-5", "9223372036854775807", "9223372036854775808",
            "99999999999999999999", "", " ", "+", "1 2", "0x10", "\u{663}", "12a", "00017",
        ]
        for text in texts {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let expected = Int64(trimmed).flatMap { $0 >= 0 ? $0 : nil }
            #expect(Response.nonNegativeInteger(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("redirect policy: resolution, schemes, origins")
    func redirectPolicy() {
        let base = URL(string: "https://a.test:8443/x/y?q")!
        #expect(RedirectPolicy.resolve("../z", against: base)?.absoluteString == "https://a.test:8443/z")
        #expect(RedirectPolicy.resolve("//b.test/p", against: base)?.absoluteString == "https://b.test/p")
        #expect(RedirectPolicy.resolve("/a b/ü", against: base)?.absoluteString == "https://a.test:8443/a%20b/%C3%BC")
        #expect(RedirectPolicy.schemeError(URL(string: "ftp://h/f")!) == nil)
        #expect(
            RedirectPolicy.schemeError(URL(string: "FILE:///etc/passwd")!)?.kind == .redirectRefused(scheme: "file"))
        #expect(RedirectPolicy.sameOrigin(URL(string: "http://h/a")!, URL(string: "http://H:80/b")!))
        #expect(!RedirectPolicy.sameOrigin(URL(string: "http://h/a")!, URL(string: "https://h/a")!))
    }

    @Test("field names match in any ASCII case, and only letters fold")
    func fieldNames() {
        let table: [(String, String, Bool)] = [
            ("Content-Type", "content-type", true),
            ("ETAG", "ETag", true),
            ("X-A", "X-B", false),
            ("Content-Type", "Content-Typ", false),
            ("a@", "a`", false),
            ("a[", "a{", false),
            ("Straße", "STRASSE", false),
            ("Ärger", "ärger", true),
        ]
        for (name, other, equal) in table {
            #expect(name.caseInsensitiveEquals(other) == equal, "\(name) vs \(other)")
        }
        var headers = HTTPHeaders()
        headers.add("Content-Length", "5")
        #expect(
            headers["content-length"] == "5" && headers["CONTENT-LENGTH"] == "5" && headers["content-lengtx"] == nil)
    }
}

extension ResponseHead {
    /// Starts a response at a status line given as text, as the header callback gives it bytes.
    fileprivate mutating func begin(statusLine: String) {
        var line = statusLine
        line.withUTF8 { begin(statusLine: UnsafeRawBufferPointer($0)) }
    }
}
