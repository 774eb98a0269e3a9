// MARK: - OriginPolicy

/// Which requests a web page in the user's browser could have sent, and so are refused: a
/// foreign `Origin` and a fetch the browser marks cross-site (unless `--rpc-allow-origin-all`, or
/// a secret is required: then the secret is what a call is judged by, as aria2 does, and a page
/// such as AriaNg opened from a file, whose Origin is `null`, is served), and, while the daemon
/// listens on loopback only, a `Host` that is not a loopback name (a page whose own name was made
/// to resolve to 127.0.0.1, whatever the secret). Pure.
package struct OriginPolicy: Sendable, Equatable {
    package var allowOriginAll: Bool
    package var loopbackOnly: Bool
    /// `--rpc-secret` is set: every call but the listing ones carries it.
    package var secretRequired: Bool

    package init(allowOriginAll: Bool, loopbackOnly: Bool, secretRequired: Bool) {
        self.allowOriginAll = allowOriginAll
        self.loopbackOnly = loopbackOnly
        self.secretRequired = secretRequired
    }

    /// Whether a page of any origin is served (and told so in CORS headers).
    package var servesAnyOrigin: Bool { allowOriginAll || secretRequired }

    /// Why a request with these headers is refused, or nil when it is served.
    package func refusal(host: String?, origin: String?, fetchSite: String?) -> String? {
        if loopbackOnly, let host, !OriginPolicy.isLoopback(host) {
            return "Host '\(RPCError.shown(host))' is not this daemon's loopback address "
                + "(--rpc-listen-all, with --rpc-secret, serves other names)"
        }
        guard !servesAnyOrigin else { return nil }
        if let fetchSite, fetchSite != "same-origin", fetchSite != "none" {
            return "a \(RPCError.shown(fetchSite)) request from a web page (\(OriginPolicy.allowedBy))"
        }
        guard let origin else { return nil }
        let own = ["http://", "https://"].compactMap { scheme in host.map { scheme + $0.lowercased() } }
        guard own.contains(origin.lowercased()) else {
            return "Origin '\(RPCError.shown(origin))' is not this daemon's (\(OriginPolicy.allowedBy))"
        }
        return nil
    }

    /// What serves a page of another origin, said in a refusal.
    static let allowedBy = "--rpc-secret or --rpc-allow-origin-all allows it"

    /// Whether a Host header names this machine's loopback: 127.0.0.1 (or any 127/8),
    /// localhost, or [::1], with any port.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            return name.hasPrefix("[::1]")
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
