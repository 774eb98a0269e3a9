import Foundation
import HaulNet

// MARK: - Requests

extension DownloadQueue.Configuration {
    /// The request for `url` that `options` (already merged over the defaults) describe: its
    /// timeout, TLS settings, User-Agent, Referer, headers, login (the options' own, else the
    /// netrc entry for the host), proxies and speed limits. Every attempt, a dry run and a body
    /// sent to stdout ask alike.
    public func request(for url: URL, options: DownloadOptions) -> Request {
        var request = Request(url: url)
        request.timeoutInterval = Double(options.timeout ?? 60)
        request.connectTimeout = options.connectTimeout.map(Double.init)
        request.tls = tls
        if let userAgent = options.userAgent { request.userAgent = userAgent }
        if let referer = options.referer { request.headers.set("Referer", referer) }
        for header in options.headers {
            if let field = DownloadOptions.Values.headerField(header) { request.headers.add(field.name, field.value) }
        }
        if let user = options.httpUser {
            request.credentials = Credentials(user: user, password: options.httpPasswd ?? "")
        } else if let host = request.url.host, let entry = netrc?.entry(for: host) {
            request.credentials = Credentials(user: entry.login, password: entry.password)
        }
        request.proxies = Proxies(
            all: options.allProxy, http: options.httpProxy, https: options.httpsProxy,
            bypass: options.noProxy)
        if let limit = options.maxDownloadLimit, limit > 0 { request.maxReceiveSpeed = limit }
        if let lowest = options.lowestSpeedLimit, lowest > 0 { request.lowestSpeed = lowest }
        return request
    }
}
