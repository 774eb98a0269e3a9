import Foundation
import HaulText

// MARK: - Response

/// The final response of one load (never a 1xx, never a followed redirect): status, headers and
/// what they say about the body.
public struct Response: Sendable {
    /// The URL that answered, after redirects.
    public let url: URL
    /// The HTTP status code; 0 for a scheme without one (ftp).
    public let statusCode: Int
    /// The reason phrase of the status line (`Not Found`), or the standard one when the server
    /// sent none (HTTP/2).
    public let reasonPhrase: String
    public let httpVersion: String
    public let headers: HTTPHeaders
    /// True when the response was answered from a `ResponseCache` (perhaps after the server
    /// confirmed it with a 304) rather than sent by the server for this load.
    public let isFromCache: Bool
    /// True for one part of a `multipart/x-mixed-replace` body: its headers are the part's, and
    /// the next part replaces it, so it is no resource to split or resume.
    public internal(set) var isMultipartPart = false
    /// The body's length from Content-Length, or -1 when unknown or when the body is
    /// content-encoded (its decoded length is then unknown). Read from the headers once: a
    /// small file's response is asked for it some ten times, on the engine thread and the
    /// queue's.
    public let expectedContentLength: Int64

    /// A response as the engine or a cache builds it; `expectedContentLength` is read from `headers`.
    ///
    /// - Parameters:
    ///   - url: The URL that answered.
    ///   - statusCode: The status code; 0 for a scheme without one.
    ///   - reasonPhrase: The reason phrase; empty for the standard one of `statusCode`.
    ///   - httpVersion: The protocol of the status line, such as `HTTP/2`.
    ///   - headers: The response's header fields.
    ///   - isFromCache: Whether a `ResponseCache` answered.
    public init(
        url: URL, statusCode: Int, reasonPhrase: String = "", httpVersion: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(), isFromCache: Bool = false
    ) {
        self.url = url
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase.isEmpty ? Response.standardReason(for: statusCode) : reasonPhrase
        self.httpVersion = httpVersion
        self.headers = headers
        self.isFromCache = isFromCache
        expectedContentLength = Response.contentLength(in: headers)
    }

    // MARK: - What the headers say

    /// What `expectedContentLength` says of `headers`.
    private static func contentLength(in headers: HTTPHeaders) -> Int64 {
        if let encoding = headers["Content-Encoding"], encoding.lowercased() != "identity" { return -1 }
        // A length past `FileSize.largest` is no file's: unknown here (libcurl still holds the
        // body to the length it said, and fails a shorter one).
        guard let text = headers["Content-Length"], let length = Response.nonNegativeInteger(text) else { return -1 }
        return FileSize.checked(length) ?? -1
    }

    /// `text` as `Int64(_:)` reads it between HTTP white space, when it is not negative. Read
    /// on the bytes in place.
    static func nonNegativeInteger(_ text: String) -> Int64? {
        text.withUTF8Bytes { all -> Int64? in
            var digits = UnsafeRawBufferPointer(all).trimmingHTTPWhitespace()[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            guard !digits.isEmpty else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, carried) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                // Past Int64.max: too large either way (a negative one is refused below anyway).
                guard !overflowed, !carried else { return nil }
                value = sum
            }
            return negative && value != 0 ? nil : value
        }
    }

    /// The media type of Content-Type without parameters, lower-cased (`text/html`).
    public var mimeType: String? {
        guard let type = headers["Content-Type"]?.split(separator: ";").first else { return nil }
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The `charset` parameter of Content-Type, if any.
    public var textEncodingName: String? {
        headers["Content-Type"].flatMap { ContentDisposition.parameters(in: $0)["charset"] }
    }

    /// A file name for the body, unsanitized: Content-Disposition's `filename*` (RFC 5987),
    /// then its `filename`, then the last segment of the URL path, percent-decoded. Callers
    /// that use it as a path must sanitize it first.
    public var suggestedFilename: String? {
        if let disposition = headers["Content-Disposition"], let name = ContentDisposition.filename(in: disposition) {
            return name
        }
        // A plain last segment is read off the URL's text: `lastPathComponent` parses the whole
        // URL again, on the engine thread, for every small file.
        if let segment = URIText.plainLastSegment(of: url.absoluteString) { return segment }
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? nil : last
    }

    /// The strong or weak entity tag, quotes included.
    public var entityTag: String? { headers["ETag"] }
    public var lastModified: String? { headers["Last-Modified"] }
    /// What a resume must match: the ETag, else Last-Modified.
    public var validator: String? { entityTag ?? lastModified }

    public var isSuccess: Bool { statusCode == 0 || (200..<300).contains(statusCode) }

    /// Whether the server said it takes byte ranges: a part of the file (206), or
    /// `Accept-Ranges: bytes`. One that did not will most likely send the whole file again to a
    /// request to continue.
    public var offersRanges: Bool {
        Response.offersRanges(statusCode: statusCode, acceptRanges: headers["Accept-Ranges"])
    }

    /// `offersRanges` for a response kept in another form.
    ///
    /// - Parameters:
    ///   - statusCode: The response's status.
    ///   - acceptRanges: Its `Accept-Ranges` value, if it had one.
    /// - Returns: Whether the server said it takes byte ranges.
    public static func offersRanges(statusCode: Int, acceptRanges: String?) -> Bool {
        statusCode == 206 || acceptRanges?.lowercased() == "bytes"
    }

    // MARK: - Reason phrases

    /// The reason phrase RFC 9110 gives a status code, for servers (HTTP/2) that send none.
    static func standardReason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
