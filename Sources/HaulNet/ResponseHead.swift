import Foundation

// MARK: - ResponseHead

/// Collects the status line and header lines of one HTTP response as libcurl hands them to
/// the header callback, one line at a time.
struct ResponseHead {
    private(set) var httpVersion = ""
    private(set) var statusCode: Int?
    private(set) var reasonPhrase = ""
    private(set) var headers = HTTPHeaders()

    /// Starts a new response at its status line (`HTTP/1.1 200 OK`, `HTTP/2 204`).
    mutating func begin(statusLine: Substring) {
        self = ResponseHead()
        // Room for a usual response's fields at once, rather than grown one by one.
        headers.reserveCapacity(16)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        httpVersion = parts.first.map(String.init) ?? ""
        statusCode = parts.count > 1 ? Int(parts[1]) : nil
        reasonPhrase = parts.count > 2 ? String(parts[2].trimmingHTTPWhitespace()) : ""
    }

    /// Adds one `Name: value` line; a line starting with white space continues the previous one.
    /// Read as bytes: a header line is not cut into Characters to find its colon.
    mutating func add(headerLine line: Substring) {
        let bytes = line.utf8
        if let first = bytes.first, first == 0x20 || first == 0x09 {
            headers.appendToLastValue(" " + line.trimmingHTTPWhitespace())
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(line[..<colon].trimmingHTTPWhitespace())
        let value = String(line[bytes.index(after: colon)...].trimmingHTTPWhitespace())
        guard !name.isEmpty else { return }
        headers.add(name, value)
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
