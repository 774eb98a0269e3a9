// MARK: - ProxyOptions

/// Which proxy each download goes through.
struct ProxyOptions {
    var allProxy: String?
    var httpProxy: String?
    var httpsProxy: String?
    var noProxy: String?

    static let options: [OptionSpec<ProxyOptions>] = [
        .value(
            "all-proxy", "proxy",
            help: "Proxy for every download: host:port or a URL (http, https, socks4, socks4a, socks5, socks5h). "
                + "Default: $all_proxy and friends."
        ) { $0.allProxy = try OptionValue.download("all-proxy", $1, \.allProxy) },
        .value("http-proxy", "proxy", help: "Proxy for http:// downloads (default: $http_proxy).") {
            $0.httpProxy = try OptionValue.download("http-proxy", $1, \.httpProxy)
        },
        .value("https-proxy", "proxy", help: "Proxy for https:// downloads (default: $https_proxy).") {
            $0.httpsProxy = try OptionValue.download("https-proxy", $1, \.httpsProxy)
        },
        .value(
            "no-proxy", "hosts",
            help: "Hosts to reach without a proxy, comma-separated; * for all (default: $no_proxy)."
        ) { $0.noProxy = try OptionValue.download("no-proxy", $1, \.noProxy) },
    ]
}
