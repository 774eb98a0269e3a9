import ArgumentParser

// MARK: - ProxyOptions

/// Which proxy each download goes through.
struct ProxyOptions: ParsableArguments {
    @Option(
        name: .customLong("all-proxy"),
        help: ArgumentHelp(
            "Proxy for every download: host:port or a URL (http, https, socks4, socks4a, socks5, "
                + "socks5h). Default: $all_proxy and friends.", valueName: "proxy"),
        transform: OptionValue.of("all-proxy", \.allProxy))
    var allProxy: String?

    @Option(
        name: .customLong("http-proxy"),
        help: ArgumentHelp("Proxy for http:// downloads (default: $http_proxy).", valueName: "proxy"),
        transform: OptionValue.of("http-proxy", \.httpProxy))
    var httpProxy: String?

    @Option(
        name: .customLong("https-proxy"),
        help: ArgumentHelp("Proxy for https:// downloads (default: $https_proxy).", valueName: "proxy"),
        transform: OptionValue.of("https-proxy", \.httpsProxy))
    var httpsProxy: String?

    @Option(
        name: .customLong("no-proxy"),
        help: ArgumentHelp(
            "Hosts to reach without a proxy, comma-separated; * for all (default: $no_proxy).",
            valueName: "hosts"),
        transform: OptionValue.of("no-proxy", \.noProxy))
    var noProxy: String?
}
