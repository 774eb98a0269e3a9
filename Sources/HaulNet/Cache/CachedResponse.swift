import Foundation

// MARK: - CachedResponse

/// A response and its whole body as a `ResponseCache` keeps them, with the time it was stored.
///
/// The delegate is offered one in `connection(_:willCacheResponse:)` and may change it before
/// it is stored. A value type: safe to pass between threads.
public struct CachedResponse: Sendable {
    public var response: Response
    public var data: Data
    /// When the response was received (or last confirmed by a 304); its age counts from here.
    public var storedAt: Date
    /// The values the request had for the fields the response's `Vary` names: a later request
    /// must have the same ones to be answered with this response.
    public var varyingRequestHeaders: [String: String]

    /// A response and its body as stored at `storedAt`.
    ///
    /// - Parameters:
    ///   - response: The response's status line and headers.
    ///   - data: Its whole body.
    ///   - storedAt: When it was received or last confirmed; now by default.
    ///   - varyingRequestHeaders: The request's values of the fields the response's `Vary` names.
    public init(response: Response, data: Data, storedAt: Date = Date(), varyingRequestHeaders: [String: String] = [:])
    {
        self.response = response
        self.data = data
        self.storedAt = storedAt
        self.varyingRequestHeaders = varyingRequestHeaders
    }

    // MARK: - Freshness (RFC 9111 §4.2)

    /// Seconds the response may be used without asking the server: `max-age`, else `Expires`
    /// minus `Date`, else a tenth of the time since `Last-Modified` (at most a day); zero under
    /// `no-cache`.
    public var freshnessLifetime: TimeInterval {
        let control = CacheControl(response.headers)
        if control.noCache { return 0 }
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? storedAt
        if let expiresText = response.headers["Expires"] {
            // An Expires that is not a date (often "0") means already expired.
            guard let expires = HTTPDate.parse(expiresText) else { return 0 }
            return max(0, expires.timeIntervalSince(date))
        }
        if let lastModified = response.lastModified.flatMap(HTTPDate.parse) {
            return min(max(0, date.timeIntervalSince(lastModified)) / 10, CachedResponse.heuristicLimit)
        }
        return 0
    }

    /// Seconds since the origin produced the response: its `Age` when stored, plus the time
    /// since it was stored.
    ///
    /// - Parameter now: The time to measure at.
    /// - Returns: The response's age in seconds, never negative.
    public func age(at now: Date) -> TimeInterval {
        let ageWhenStored = response.headers["Age"].flatMap { TimeInterval($0.trimmingHTTPWhitespace()) } ?? 0
        return max(0, ageWhenStored) + max(0, now.timeIntervalSince(storedAt))
    }

    /// Whether the response may answer a request at `now` without asking the server.
    func isFresh(at now: Date = Date()) -> Bool {
        age(at: now) < freshnessLifetime
    }

    /// Whether the server can be asked if this response still holds (it has an ETag or a
    /// Last-Modified).
    public var canBeRevalidated: Bool { response.validator != nil }

    /// The headers that ask the server whether this response still holds.
    var validatingHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        if let tag = response.entityTag { headers.add("If-None-Match", tag) }
        if let lastModified = response.lastModified { headers.add("If-Modified-Since", lastModified) }
        return headers
    }

    /// This response as confirmed by a 304 at `now`: the 304's fields replace the stored ones
    /// of the same name (RFC 9111 §4.3.4), except those that describe the body.
    func confirmed(by notModified: Response, at now: Date) -> CachedResponse {
        var headers = response.headers
        let bodyFields: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        let replaced = Set(notModified.headers.map { $0.name.lowercased() }).subtracting(bodyFields)
        for name in replaced {
            headers.remove(name)
            for value in notModified.headers.values(for: name) { headers.add(name, value) }
        }
        var confirmed = self
        confirmed.response = Response(
            url: response.url, statusCode: response.statusCode, reasonPhrase: response.reasonPhrase,
            httpVersion: response.httpVersion, headers: headers, isFromCache: true)
        confirmed.storedAt = now
        return confirmed
    }

    /// The heuristic freshness of a response with only Last-Modified is capped at a day.
    static let heuristicLimit: TimeInterval = 86_400
}
