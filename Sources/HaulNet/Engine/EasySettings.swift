import Foundation

// MARK: - EasySettings

/// What one hop's `Request` asks of libcurl, as values: the mapping from a request to an easy
/// handle's options, computed without libcurl so that it is tested as a table;
/// `Transfer.configure` applies it, with the callbacks and the handle's own settings.
struct EasySettings: Equatable {
    enum HTTPVersion: Equatable {
        /// HTTP/1.1 only: the load gets a TCP connection of its own (`Request.ownsConnection`).
        case http1
        /// HTTP/2 where TLS offers it, else HTTP/1.1.
        case http2OverTLS
    }

    enum Method: Equatable {
        case get
        case head
        /// A method without a body (DELETE…).
        case custom(String)
        /// A body sent with POST, or with `method` (PUT…); `length` nil when unknown (chunked).
        case upload(method: String?, length: Int64?)
    }

    var url: String
    var httpVersion: HTTPVersion
    /// Over TLS, wait for a connection being set up to the same host to say whether it
    /// multiplexes, rather than open another.
    var waitsForMultiplexing: Bool
    var connectTimeoutMilliseconds: Int
    /// Bytes a second below which, for `lowSpeedSeconds`, the load fails.
    var lowSpeedLimit: Int
    var lowSpeedSeconds: Int
    var userAgent: String
    var acceptsEncodedContent: Bool
    var range: String?
    var verifiesPeer: Bool
    var caFile: String?
    var proxy: String?
    var noProxy: String?
    var credentials: Credentials?
    var proxyCredentials: Credentials?
    var method: Method
    var headerLines: [String]
    var unixSocketPath: String?
    var ftpActive: Bool
    /// Require TLS on a plain-scheme control connection (FTPS, explicit).
    var explicitTLS: Bool
    /// Ask the file's time (FTP, SFTP): there it stands for Last-Modified.
    var asksFileTime: Bool
    /// An http:// or https:// load.
    var isHTTP: Bool
    /// ftp:// or ftps:// (not sftp://): its replies reach the header callback.
    var isFTP: Bool
    /// An sftp:// load's login and host-key check.
    var ssh: SSHOptions?

    /// The settings for `request`; throws for a scheme haul does not load, or a request that
    /// only the cache may answer.
    init(_ request: Request) throws(ConnectionError) {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard Request.supportedSchemes.contains(scheme) else {
            throw ConnectionError(kind: .unsupportedScheme(scheme), url: request.url)
        }
        if request.cachePolicy == .returnCacheDataDontLoad {
            throw ConnectionError(kind: .notInCache, url: request.url)
        }
        // ftps:// is explicit TLS, as wget reads it: the control connection starts plain on
        // port 21 and is upgraded with AUTH TLS before the login; libcurl calls that ftp://
        // with TLS required (its ftps:// is the older implicit form on port 990).
        explicitTLS = scheme == "ftps"
        url = explicitTLS ? "ftp" + request.url.absoluteString.dropFirst("ftps".count) : request.url.absoluteString
        httpVersion = request.ownsConnection ? .http1 : .http2OverTLS
        // Not over plain HTTP: there libcurl learns nothing until the first transfer ends, and
        // would hold the second one back behind it.
        waitsForMultiplexing = !request.ownsConnection && scheme == "https"
        let timeout = max(request.timeoutInterval, 0.001)
        connectTimeoutMilliseconds = Int(max(request.connectTimeout ?? timeout, 0.001) * 1000)
        lowSpeedLimit = Int(max(request.lowestSpeed ?? 1, 1))
        lowSpeedSeconds = Int(timeout.rounded(.up))
        userAgent = request.userAgent
        acceptsEncodedContent = request.acceptsEncodedContent
        range = request.byteRange?.curlValue
        verifiesPeer = request.tls.verifyPeer
        caFile = request.tls.caFile
        unixSocketPath = request.unixSocketPath
        ftpActive = request.ftpActive
        ssh = scheme == "sftp" ? request.ssh : nil
        asksFileTime = URL.isFileTransfer(scheme: scheme)
        isHTTP = URL.isHTTP(scheme: scheme)
        isFTP = scheme == "ftp" || scheme == "ftps"
        proxy = request.unixSocketPath == nil ? request.proxies.proxy(forScheme: scheme) : nil
        noProxy = request.proxies.bypass
        credentials = request.credentials
        proxyCredentials = request.proxyCredentials
        let verb = request.method.uppercased()
        if let body = request.body {
            method = .upload(method: verb == "POST" ? nil : verb, length: body.length)
        } else {
            method = verb == "GET" ? .get : verb == "HEAD" ? .head : .custom(verb)
        }
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if let body = request.body {
            lines.append("Expect:")
            if body.length == nil { lines.append("Transfer-Encoding: chunked") }
        }
        if request.cachePolicy == .reloadIgnoringCache {
            lines.append("Cache-Control: no-cache")
            lines.append("Pragma: no-cache")
        }
        headerLines = lines
    }
}
