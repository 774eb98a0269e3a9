import Foundation
import HaulNet

// MARK: - CacheRoute

/// The fault server's `/cacheable/N?key=K&…` route, for cache tests: a body that says which
/// request for K it answers (`served 3`, padded with pattern bytes to N bytes), the same count
/// in `X-Served`, and the cache headers the query asks for:
///
/// - `cc=V`: `Cache-Control: V`; `expires=S`: `Expires` S seconds from now (or `expires=bad`);
///   `age=S`: `Age: S`; `vary=NAME`: `Vary: NAME`; `cookie=1`: a `Set-Cookie`;
///   `gzip=1`: the body gzip-encoded; `body=TEXT`: TEXT is the body instead (a queue file);
/// - `etag=1`: `ETag: "c1"`, and a 304 to `If-None-Match: "c1"`;
/// - `lm=1`: a `Last-Modified` (1 Sep 2026 10:00 GMT), and a 304 to an `If-Modified-Since` at
///   or after it.
///
/// A 304 carries the validators, `Cache-Control` and `X-Served`.
public enum CacheRoute {
    public static let entityTag = "\"c1\""
    public static let lastModified = "Tue, 01 Sep 2026 10:00:00 GMT"

    /// The status, headers and body for request number `count` of its key.
    static func answer(
        size: Int, query: [String: String], ifNoneMatch: String?, ifModifiedSince: String?, count: Int
    )
        -> (status: Int, headers: [String: String], body: [UInt8]?)
    {
        var headers = ["X-Served": String(count), "Date": HTTPDate.format(Date())]
        if let control = query["cc"] { headers["Cache-Control"] = control }
        if query["etag"] == "1" { headers["ETag"] = entityTag }
        if query["lm"] == "1" { headers["Last-Modified"] = lastModified }
        let matchesTag = query["etag"] == "1" && ifNoneMatch == entityTag
        let notModifiedSince =
            query["lm"] == "1"
            && ifModifiedSince.flatMap(HTTPDate.parse).map { date in
                HTTPDate.parse(lastModified).map { date >= $0 } ?? false
            } == true
        if matchesTag || notModifiedSince { return (304, headers, nil) }
        if let expires = query["expires"] {
            headers["Expires"] = Double(expires).map { HTTPDate.format(Date().addingTimeInterval($0)) } ?? expires
        }
        if let age = query["age"] { headers["Age"] = age }
        if let vary = query["vary"] { headers["Vary"] = vary }
        if query["cookie"] == "1" { headers["Set-Cookie"] = "session=secret-cookie; Path=/" }
        var body = Array((query["body"] ?? "served \(count)\n").utf8)
        if query["body"] == nil, size > body.count {
            body += TestPattern.bytes(offset: body.count, count: size - body.count)
        }
        if query["gzip"] == "1" {
            headers["Content-Encoding"] = "gzip"
            body = StoredGzip.stored(body)
        }
        return (200, headers, body)
    }
}

// MARK: - Queue files

extension FaultServer {
    /// A `/cacheable/` URL whose body is `lines` (a queue file), counted under `key`, with
    /// `Cache-Control: cacheControl` when given.
    public func queueFileURL(lines: [String], key: String, cacheControl: String? = nil) -> URL {
        var components = URLComponents(url: url("/cacheable/0"), resolvingAgainstBaseURL: false)
        components?.queryItems =
            [URLQueryItem(name: "key", value: key), URLQueryItem(name: "body", value: lines.joined(separator: "\n"))]
            + (cacheControl.map { [URLQueryItem(name: "cc", value: $0)] } ?? [])
        return components?.url ?? url("/cacheable/0?key=\(key)")
    }
}
