import Foundation

// MARK: - ResponseHead

/// Collects the status line and header lines of one HTTP response as libcurl hands them to
/// the header callback, one line at a time.
struct ResponseHead {
    private(set) var httpVersion = ""
    private(set) var statusCode: Int?
    private(set) var reasonPhrase = ""
    private(set) var headers = HTTPHeaders()

    /// Starts a new response at its status line (`HTTP/1.1 200 OK`, `HTTP/2 204`), given as the
    /// bytes libcurl hands over.
    mutating func begin(statusLine bytes: UnsafeRawBufferPointer) {
        self = ResponseHead()
        // Room for a usual response's fields at once, rather than grown one by one.
        headers.reserveCapacity(16)
        // Two words apart at runs of spaces, then the rest: version, code, reason.
        var index = 0
        func word() -> UnsafeRawBufferPointer {
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] != 0x20 { index += 1 }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        }
        httpVersion = String(decoding: word(), as: UTF8.self)
        let code = word()
        statusCode = code.isEmpty ? nil : Int(String(decoding: code, as: UTF8.self))
        reasonPhrase = ResponseHead.text(UnsafeRawBufferPointer(rebasing: bytes[index...]).trimmingHTTPWhitespace())
    }

    /// Adds one `Name: value` line; a line starting with white space continues the previous one.
    mutating func add(headerLine line: Substring) {
        var text = String(line)
        text.withUTF8 { add(headerLine: UnsafeRawBufferPointer($0)) }
    }

    /// Adds one header line given as the bytes libcurl hands over. Read in place: every
    /// response's lines come through here, and slicing them as text costs more than the rest
    /// of the header callback.
    mutating func add(headerLine bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        if first == 0x20 || first == 0x09 {
            headers.appendToLastValue(" " + ResponseHead.text(bytes.trimmingHTTPWhitespace()))
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = ResponseHead.text(UnsafeRawBufferPointer(rebasing: bytes[..<colon]).trimmingHTTPWhitespace())
        guard !name.isEmpty else { return }
        headers.add(
            name, ResponseHead.text(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)...]).trimmingHTTPWhitespace()))
    }

    /// Whether `line` starts `HTTP/`: a status line, not a field. Against the prefix's bytes
    /// (walking a string's UTF-8 view for it is costly on every header line).
    static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.starts(with: statusLinePrefix)
    }

    private static let statusLinePrefix = Array("HTTP/".utf8)

    /// `bytes` without the line end (CR, LF) libcurl leaves on each header line.
    static func withoutLineEnd(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[..<end])
    }

    /// The text of `bytes` (an invalid UTF-8 sequence becomes U+FFFD).
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    func response(url: URL) -> Response {
        Response(
            url: url, statusCode: statusCode ?? 0, reasonPhrase: reasonPhrase, httpVersion: httpVersion,
            headers: headers)
    }
}

extension HTTPHeaders {
    /// Continues the value of the last field (obsolete line folding).
    mutating func appendToLastValue(_ text: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += text
    }
}
