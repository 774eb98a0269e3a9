import Foundation

// MARK: - Proxies

/// The proxies of a request, by the scheme of the URL a hop loads: `http`, `https`, then `all`.
/// A proxy is a URL (`http://`, `https://`, `socks4://`, `socks4a://`, `socks5://` or
/// `socks5h://`, which resolves names on the proxy) or `host:port` (HTTP).
public struct Proxies: Sendable, Equatable {
    public var all: String?
    public var http: String?
    public var https: String?
    /// Hosts reached directly: comma-separated names (a name also covers its subdomains), IP
    /// addresses, or `*` for every host.
    public var bypass: String?

    /// Proxies as `--all-proxy`, `--http-proxy`, `--https-proxy` and `--no-proxy` give them.
    ///
    /// - Parameters:
    ///   - all: The proxy for every scheme without its own (`http://`, `https://`, `socks5://`…).
    ///   - http: The proxy for `http://` hops.
    ///   - https: The proxy for `https://` hops.
    ///   - bypass: Hosts reached directly, comma-separated, as `no_proxy` lists them.
    public init(all: String? = nil, http: String? = nil, https: String? = nil, bypass: String? = nil) {
        self.all = all
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// The proxy for a hop to `url`, or nil when none is set for its scheme.
    ///
    /// - Parameter url: The hop's URL; its scheme picks the proxy.
    /// - Returns: The proxy's URL as given, or nil to connect directly.
    public func proxy(for url: URL) -> String? {
        proxy(forScheme: url.scheme?.lowercased())
    }

    /// The proxy for a hop by `scheme` (lowercase), or nil when none is set for it.
    func proxy(forScheme scheme: String?) -> String? {
        switch scheme {
        case "http": http ?? all
        case "https": https ?? all
        default: all
        }
    }

    /// The proxy a hop to `url` goes through: `proxy(for:)`, unless `bypass` names its host
    /// (`*`, the host, or a domain the host is in, as libcurl matches `CURLOPT_NOPROXY`).
    func proxyUsed(for url: URL) -> String? {
        guard let proxy = proxy(for: url) else { return nil }
        let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let bypassed = (bypass ?? "").split(separator: ",").contains { entry in
            let name = entry.trimmingCharacters(in: .whitespaces).lowercased()
            let domain = name.hasPrefix(".") ? String(name.dropFirst()) : name
            return name == "*" || (!domain.isEmpty && (host == domain || host.hasSuffix("." + domain)))
        }
        return bypassed ? nil : proxy
    }

    /// The schemes a proxy URL may have.
    public static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]
}
