import CCurl

// MARK: - LibcurlVersion

/// The libcurl haul runs on, as `haul --version` reports it: its version, its TLS library, the
/// protocols it speaks and the features that matter to a download manager.
public enum LibcurlVersion {
    /// `libcurl 7.88.1 (OpenSSL/3.0.17); protocols: …; features: HTTP2, IPv6, …`.
    public static var description: String {
        guard let info = haul_curl_version_info(haul_curlversion_now)?.pointee else {
            return "libcurl (version unknown)"
        }
        let version = info.version.map { String(cString: $0) } ?? "?"
        let tls = info.ssl_version.map { " (\(String(cString: $0)))" } ?? ""
        var protocols: [String] = []
        var entry = info.protocols
        while let name = entry?.pointee {
            protocols.append(String(cString: name))
            entry = entry?.advanced(by: 1)
        }
        let known: [(Int32, String)] = [
            (CURL_VERSION_HTTP2, "HTTP2"), (CURL_VERSION_HTTP3, "HTTP3"), (CURL_VERSION_IPV6, "IPv6"),
            (CURL_VERSION_LIBZ, "libz"), (CURL_VERSION_BROTLI, "brotli"), (CURL_VERSION_ZSTD, "zstd"),
            (CURL_VERSION_HTTPS_PROXY, "HTTPS-proxy"), (CURL_VERSION_ASYNCHDNS, "AsynchDNS"),
        ]
        let features = known.filter { info.features & $0.0 != 0 }.map(\.1)
        return "libcurl \(version)\(tls); protocols: \(protocols.joined(separator: " ")); "
            + "features: \(features.joined(separator: " "))"
    }
}
