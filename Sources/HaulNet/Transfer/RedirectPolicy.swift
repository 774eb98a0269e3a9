import Foundation

// MARK: - RedirectPolicy

/// Which responses are redirects, and the request that follows one: the target resolved
/// against the current URL, the method and body per RFC 9110, credentials kept only on the
/// same origin, and only to http, https, ftp or ftps.
enum RedirectPolicy {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    static func isRedirect(_ response: Response) -> Bool {
        redirectStatuses.contains(response.statusCode) && response.headers["Location"] != nil
    }

    /// The request after `response` redirected `request`, or why it must not be followed.
    static func nextRequest(
        after request: Request, response: Response, hopsSoFar: Int
    ) -> Result<Request, ConnectionError> {
        guard hopsSoFar < request.maxRedirects else {
            return .failure(ConnectionError(kind: .tooManyRedirects(limit: request.maxRedirects), url: response.url))
        }
        guard let location = response.headers["Location"], let target = resolve(location, against: response.url) else {
            return .failure(ConnectionError(kind: .badURL, url: response.url, detail: "unusable Location header"))
        }
        if let error = schemeError(target) { return .failure(error) }

        var next = request.fields
        next.url = target
        let method = request.method.uppercased()
        let becomesGet =
            response.statusCode == 303
            ? method != "HEAD"
            : (response.statusCode == 301 || response.statusCode == 302) && method == "POST"
        if becomesGet {
            next.method = "GET"
            next.body = nil
            next.headers.remove("Content-Type")
            next.headers.remove("Content-Length")
        }
        if !sameOrigin(request.url, target) {
            next.credentials = nil
            next.headers.fields.removeAll { HTTPHeaders.isCredential($0.name) }
        }
        return .success(Request(next))
    }

    /// Why `url` may not be loaded, if it may not.
    static func schemeError(_ url: URL) -> ConnectionError? {
        let scheme = url.scheme?.lowercased() ?? ""
        return Request.supportedSchemes.contains(scheme)
            ? nil : ConnectionError(kind: .redirectRefused(scheme: scheme), url: url)
    }

    // MARK: - URLs

    /// Resolves a Location value (absolute or relative) against `base`, escaping the raw
    /// spaces, non-ASCII bytes and characters a URI may not hold (`|`, `{`, brackets outside
    /// an IPv6 host…) that some servers send. Escapes already there (`%41`) stay as they are.
    static func resolve(_ location: String, against base: URL) -> URL? {
        let bytes = Array(location.utf8)
        // Brackets belong to an IPv6 host in the authority; elsewhere they are escaped.
        var pathStart = 0
        if let scheme = location.range(of: "://") ?? (location.hasPrefix("//") ? location.range(of: "//") : nil) {
            let authority = location.utf8.distance(from: location.startIndex, to: scheme.upperBound)
            pathStart = bytes[authority...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
        }
        var escaped = ""
        for (index, byte) in bytes.enumerated() {
            let unsafe =
                byte <= 0x20 || byte >= 0x7F || "\"<>\\^`{|}".utf8.contains(byte)
                || (index >= pathStart && (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")))
            if unsafe {
                escaped += String(format: "%%%02X", byte)
            } else {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return URL(string: escaped, relativeTo: base)?.absoluteURL
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let first = Origin(a) else { return false }
        return first == Origin(b)
    }
}
