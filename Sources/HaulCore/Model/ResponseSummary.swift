import HaulNet
import HaulText

// MARK: - ResponseSummary

/// What a download's last response said, for a detail view: status, the headers a person asks
/// about, and the redirects that led there. Everything in it came from a server, so it is kept
/// as received and must be drawn through `TextSanitizer.visible`. A class, so that a `Download`
/// carries one pointer for it: a queue holds many copies of 100,000 downloads.
public final class ResponseSummary: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// The headers kept; the rest (and any Set-Cookie) are not.
    public static let keptHeaders = [
        "Content-Type", "Content-Length", "Content-Range", "Content-Disposition",
        "ETag", "Last-Modified", "Accept-Ranges", "Server", "Retry-After",
    ]

    public let statusCode: Int
    public let reasonPhrase: String
    public let httpVersion: String
    public let headers: [Header]
    /// Each URL that redirected, in order (passwords shown as `***`), then the final one.
    public let redirectChain: [String]
    /// The request that got this response, as haul set it (for `--verbose`; empty otherwise):
    /// its method, then `Range`, `If-Range`, `User-Agent` and the headers given, a credential's
    /// value shown as `***`. libcurl adds `Host`, `Accept` and a login's `Authorization`.
    public let request: [Header]

    /// `everyHeader`: keep every header as received, and `request`'s (for `--verbose`), a
    /// credential's value (Set-Cookie, a token) shown as `***`; else only `keptHeaders`.
    init(_ response: Response, redirectChain: [String], everyHeader: Bool = false, request: Request? = nil) {
        statusCode = response.statusCode
        self.request = everyHeader ? request.map(ResponseSummary.shown) ?? [] : []
        reasonPhrase = response.reasonPhrase
        httpVersion = response.httpVersion
        if everyHeader {
            headers = response.headers.map { field in
                let secret =
                    HTTPHeaders.isCredential(field.name) || field.name.lowercased() == "set-cookie"
                return Header(name: field.name, value: secret ? "***" : field.value)
            }
        } else {
            // Room made once: every small file's response is summed up.
            var kept: [Header] = []
            kept.reserveCapacity(ResponseSummary.keptHeaders.count)
            for name in ResponseSummary.keptHeaders {
                if let value = response.headers[name] { kept.append(Header(name: name, value: value)) }
            }
            headers = kept
        }
        self.redirectChain = redirectChain + [response.url.redactedString]
    }

    /// `request` as `--verbose` shows it: its method, then the headers haul sets.
    private static func shown(_ request: Request) -> [Header] {
        var shown = [Header(name: request.method, value: request.url.redactedString)]
        if let range = request.byteRange {
            shown.append(
                Header(name: "Range", value: "bytes=\(range.lowerBound)-\(range.upperBound.map(String.init) ?? "")"))
        }
        shown.append(Header(name: "User-Agent", value: request.userAgent))
        for field in request.headers {
            shown.append(Header(name: field.name, value: HTTPHeaders.isCredential(field.name) ? "***" : field.value))
        }
        return shown
    }

    /// The kept header `name`'s value (names as in `keptHeaders`).
    ///
    /// - Parameter name: A header name as kept (`Content-Type`, `Last-Modified`…).
    /// - Returns: Its value, or nil when the response had none.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the server said it takes byte ranges (`Response.offersRanges`).
    public var offersRanges: Bool {
        Response.offersRanges(statusCode: statusCode, acceptRanges: header("Accept-Ranges"))
    }

    public static func == (left: ResponseSummary, right: ResponseSummary) -> Bool {
        left === right
            || (left.statusCode == right.statusCode && left.reasonPhrase == right.reasonPhrase
                && left.httpVersion == right.httpVersion && left.headers == right.headers
                && left.redirectChain == right.redirectChain && left.request == right.request)
    }
}
