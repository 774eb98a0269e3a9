import Foundation

// MARK: - CacheControl

/// The directives of `Cache-Control` (RFC 9111 §5.2) that a private cache acts on, read from
/// every `Cache-Control` field of a message, plus `Pragma: no-cache`.
struct CacheControl: Equatable {
    /// Nothing of this exchange may be stored.
    var noStore = false
    /// A stored response must be confirmed with the server before every use.
    var noCache = false
    /// Seconds the response stays fresh after it was generated.
    var maxAge: Int?

    init(_ headers: HTTPHeaders) {
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts.first.map { $0.trimmingHTTPWhitespace().lowercased() } ?? ""
                let argument =
                    parts.count > 1
                    ? parts[1].trimmingHTTPWhitespace().trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    : nil
                switch name {
                case "no-store": noStore = true
                // `no-cache="Set-Cookie"` limits the demand to those fields; haul never stores
                // Set-Cookie, so only the bare directive matters.
                case "no-cache" where argument == nil: noCache = true
                // The first max-age wins; a malformed one makes the response stale (RFC 9111 §4.2.1).
                case "max-age" where maxAge == nil: maxAge = argument.flatMap { Int($0) }.map { max(0, $0) } ?? 0
                default: break
                }
            }
        }
        if headers.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") }) {
            noCache = true
        }
    }
}
