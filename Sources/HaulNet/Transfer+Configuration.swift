import CCurl
import Foundation

// MARK: - Configuration

/// A hop's easy handle set up from its `Request`: URL, method and body, headers, timeouts,
/// TLS, proxies, limits and the callbacks. Engine thread.
extension Transfer {

    /// Sets every option of the current hop on a freshly reset easy handle.
    func configure() throws(ConnectionError) {
        guard let easy else {
            throw ConnectionError(kind: .transport, url: request.url, detail: "libcurl could not allocate a handle")
        }
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard Request.supportedSchemes.contains(scheme) else {
            throw ConnectionError(kind: .unsupportedScheme(scheme), url: request.url)
        }
        if request.cachePolicy == .returnCacheDataDontLoad {
            throw ConnectionError(kind: .notInCache, url: request.url)
        }
        curl_easy_reset(easy)
        freeHeaderList()
        errorBuffer.initialize(to: 0)
        var options = EasyOptions(easy: easy)
        let me = Unmanaged.passUnretained(self).toOpaque()
        options.set(CURLOPT_PRIVATE, pointer: UnsafeMutableRawPointer(bitPattern: UInt(connection.id)))
        options.set(CURLOPT_URL, request.url.absoluteString)
        options.set(CURLOPT_PROTOCOLS_STR, "http,https,ftp,ftps")
        options.set(CURLOPT_NOSIGNAL, 1)
        options.set(CURLOPT_BUFFERSIZE, bufferSize)
        options.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        options.set(
            CURLOPT_WRITEFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receivedBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_WRITEDATA, pointer: me)
        options.set(
            CURLOPT_HEADERFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receivedHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_HEADERDATA, pointer: me)
        if request.ownsConnection {
            // HTTP/1.1 cannot multiplex: this load gets a connection of its own.
            options.set(CURLOPT_HTTP_VERSION, haul_http_version_1_1)
        } else {
            options.set(CURLOPT_HTTP_VERSION, haul_http_version_2tls)
            // Over TLS, wait for a connection being set up to the same host to say (by ALPN)
            // whether it multiplexes (HTTP/2) rather than open another: many small loads then
            // share one connection. Not over plain HTTP: there libcurl learns nothing until the
            // first transfer ends, and would hold the second one back behind it.
            if scheme == "https" { options.set(CURLOPT_PIPEWAIT, 1) }
        }
        options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        let timeout = max(request.timeoutInterval, 0.001)
        options.set(CURLOPT_CONNECTTIMEOUT_MS, Int(max(request.connectTimeout ?? timeout, 0.001) * 1000))
        options.set(CURLOPT_LOW_SPEED_LIMIT, Int(max(request.lowestSpeed ?? 1, 1)))
        options.set(CURLOPT_LOW_SPEED_TIME, Int(timeout.rounded(.up)))
        options.set(CURLOPT_USERAGENT, request.userAgent)
        if request.acceptsEncodedContent { options.set(CURLOPT_ACCEPT_ENCODING, "") }
        if let range = request.byteRange { options.set(CURLOPT_RANGE, range.curlValue) }
        options.set(CURLOPT_SSL_VERIFYPEER, request.tls.verifyPeer ? 1 : 0)
        options.set(CURLOPT_SSL_VERIFYHOST, request.tls.verifyPeer ? 2 : 0)
        if let caFile = request.tls.caFile { options.set(CURLOPT_CAINFO, caFile) }
        if let proxy = request.proxies.proxy(for: request.url) { options.set(CURLOPT_PROXY, proxy) }
        if let bypass = request.proxies.bypass { options.set(CURLOPT_NOPROXY, bypass) }
        if let credentials = request.credentials {
            options.set(CURLOPT_USERNAME, credentials.user)
            options.set(CURLOPT_PASSWORD, credentials.password)
            options.set(CURLOPT_HTTPAUTH, haul_auth_basic_or_digest)
        }
        if let credentials = request.proxyCredentials {
            options.set(CURLOPT_PROXYUSERNAME, credentials.user)
            options.set(CURLOPT_PROXYPASSWORD, credentials.password)
            options.set(CURLOPT_PROXYAUTH, haul_auth_basic_or_digest)
        }
        share?.attach(&options)
        try configureMethodAndBody(&options, context: me)
        headerList = options.setHeaders(headerLines())
        try options.check(url: request.url)
    }

    func configureMethodAndBody(
        _ options: inout EasyOptions, context: UnsafeMutableRawPointer
    ) throws(ConnectionError) {
        let method = request.method.uppercased()
        upload = nil
        guard let body = request.body else {
            switch method {
            case "GET": options.set(CURLOPT_HTTPGET, 1)
            case "HEAD": options.set(CURLOPT_NOBODY, 1)
            default: options.set(CURLOPT_CUSTOMREQUEST, method)
            }
            return
        }
        guard let source = UploadSource(body) else {
            throw ConnectionError(kind: .bodyStream, url: request.url, detail: "no body stream was given")
        }
        upload = source
        options.set(CURLOPT_POST, 1)
        options.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: body.length ?? -1)
        options.set(
            CURLOPT_READFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_READDATA, pointer: context)
        // libcurl rewinds the body to send it again on the same hop (an authentication
        // retry, a reused connection that was lost): a fresh stream stands in for the rewind.
        options.set(seekCallback: { context, offset, origin in
            guard let context else { return haul_seekfunc_fail }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.rewindBody(to: Int64(offset), origin: origin)
        })
        options.set(CURLOPT_SEEKDATA, pointer: context)
        if method != "POST" { options.set(CURLOPT_CUSTOMREQUEST, method) }
    }

    /// The request's header lines, plus what the cache policy and the body call for.
    func headerLines() -> [String] {
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if request.body != nil {
            lines.append("Expect:")
            if request.body?.length == nil { lines.append("Transfer-Encoding: chunked") }
        }
        if request.cachePolicy == .reloadIgnoringCache {
            lines.append("Cache-Control: no-cache")
            lines.append("Pragma: no-cache")
        }
        return lines
    }

    func freeHeaderList() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }
}

extension URL {
    var isHTTP: Bool {
        let scheme = scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }
}
