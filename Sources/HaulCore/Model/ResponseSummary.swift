import HaulNet

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

    /// `everyHeader`: keep every header as received (for `--verbose`), a credential's value
    /// (Set-Cookie, a token) shown as `***`; else only `keptHeaders`.
    init(_ response: Response, redirectChain: [String], everyHeader: Bool = false) {
        statusCode = response.statusCode
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

    /// The kept header `name`'s value (names as in `keptHeaders`).
    ///
    /// - Parameter name: A header name as kept (`Content-Type`, `Last-Modified`…).
    /// - Returns: Its value, or nil when the response had none.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the server said it takes byte ranges: a part of the file (206), or
    /// `Accept-Ranges: bytes`. One that did not will most likely send the whole file again to a
    /// request to continue.
    public var offersRanges: Bool {
        statusCode == 206 || header("Accept-Ranges")?.lowercased() == "bytes"
    }

    public static func == (left: ResponseSummary, right: ResponseSummary) -> Bool {
        left === right
            || (left.statusCode == right.statusCode && left.reasonPhrase == right.reasonPhrase
                && left.httpVersion == right.httpVersion && left.headers == right.headers
                && left.redirectChain == right.redirectChain)
    }
}
