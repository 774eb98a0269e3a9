import CCurl
import Foundation

// MARK: - Configuration

/// A hop's easy handle set up from its `Request`: URL, method and body, headers, timeouts,
/// TLS, proxies, limits and the callbacks. Engine thread.
extension Transfer {

    /// Sets every option of the current hop on a freshly reset easy handle: the request's
    /// (`EasySettings`), then the callbacks, the share and the handle's own.
    func configure() throws(ConnectionError) {
        guard let easy else {
            throw ConnectionError(kind: .transport, url: request.url, detail: "libcurl could not allocate a handle")
        }
        let settings = try EasySettings(request)
        hopIsHTTP = settings.isHTTP
        ftpSize = settings.isFTP ? FTPSizeCheck() : nil
        if handleCarriedHop { haul_curl_easy_reset(easy) }
        handleCarriedHop = true
        freeHeaderList()
        errorBuffer.initialize(to: 0)
        var options = EasyOptions(easy: easy)
        let me = Unmanaged.passUnretained(self).toOpaque()
        options.set(CURLOPT_PRIVATE, pointer: UnsafeMutableRawPointer(bitPattern: UInt(connection.id)))
        options.set(CURLOPT_URL, settings.url)
        options.set(CURLOPT_PROTOCOLS_STR, "http,https,ftp,ftps,sftp")
        options.set(CURLOPT_NOSIGNAL, 1)
        options.set(CURLOPT_BUFFERSIZE, handles.bufferSize)
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
        switch settings.httpVersion {
        case .http1: options.set(CURLOPT_HTTP_VERSION, haul_http_version_1_1)
        case .http2OverTLS: options.set(CURLOPT_HTTP_VERSION, haul_http_version_2tls)
        }
        // The pool's connections to a host are opened together: there none waits for another.
        if settings.waitsForMultiplexing, !inPool {
            options.set(CURLOPT_PIPEWAIT, 1)
            // Told once the connection is up, before the request goes: its TLS may have agreed
            // on HTTP/2 a round trip before a response says so. libcurl before 7.80 lacks the
            // option; there the response tells.
            haul_easy_setopt_prereq_callback(easy, CURLOPT_PREREQFUNCTION) { context, _, _, _, _ in
                guard let context else { return 0 }
                Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().connected()
                return 0
            }
            haul_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, me)
        }
        options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        options.set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds)
        options.set(CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedLimit)
        options.set(CURLOPT_LOW_SPEED_TIME, settings.lowSpeedSeconds)
        options.set(CURLOPT_USERAGENT, settings.userAgent)
        if settings.acceptsEncodedContent { options.set(CURLOPT_ACCEPT_ENCODING, "") }
        if let range = settings.range { options.set(CURLOPT_RANGE, range) }
        options.set(CURLOPT_SSL_VERIFYPEER, settings.verifiesPeer ? 1 : 0)
        options.set(CURLOPT_SSL_VERIFYHOST, settings.verifiesPeer ? 2 : 0)
        if let caFile = settings.caFile { options.set(CURLOPT_CAINFO, caFile) }
        if let path = settings.unixSocketPath { options.set(CURLOPT_UNIX_SOCKET_PATH, path) }
        // FTP and SFTP: the file's time (MDTM, stat), a resume's validator.
        if settings.asksFileTime { options.set(CURLOPT_FILETIME, 1) }
        if settings.ftpActive { options.set(CURLOPT_FTPPORT, "-") }
        if settings.explicitTLS { options.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)) }
        if let ssh = settings.ssh { configureSSH(ssh, &options) }
        if let proxy = settings.proxy { options.set(CURLOPT_PROXY, proxy) }
        if let bypass = settings.noProxy { options.set(CURLOPT_NOPROXY, bypass) }
        if let credentials = settings.credentials {
            options.set(CURLOPT_USERNAME, credentials.user)
            options.set(CURLOPT_PASSWORD, credentials.password)
            options.set(CURLOPT_HTTPAUTH, haul_auth_basic_or_digest)
        }
        if let credentials = settings.proxyCredentials {
            options.set(CURLOPT_PROXYUSERNAME, credentials.user)
            options.set(CURLOPT_PROXYPASSWORD, credentials.password)
            options.set(CURLOPT_PROXYAUTH, haul_auth_basic_or_digest)
        }
        share?.attach(&options)
        try configureMethodAndBody(settings.method, &options, context: me)
        headerList = options.setHeaders(settings.headerLines)
        try options.check(url: request.url)
    }

    /// An sftp:// load: its key (or, for a network client's download without one, a password
    /// only), and its host key checked against the digest the user gave, else against the
    /// known hosts (libcurl refuses a key it does not find there).
    func configureSSH(_ ssh: SSHOptions, _ options: inout EasyOptions) {
        if let key = ssh.privateKey {
            options.set(CURLOPT_SSH_PRIVATE_KEYFILE, key)
        } else if !ssh.mayUseOwnIdentity {
            options.set(CURLOPT_SSH_AUTH_TYPES, haul_ssh_auth_password_only)
        }
        if let md5 = ssh.hostKeyMD5 {
            options.set(CURLOPT_SSH_HOST_PUBLIC_KEY_MD5, md5)
        } else if let sha256 = ssh.hostKeySHA256 {
            options.set(CURLOPT_SSH_HOST_PUBLIC_KEY_SHA256, sha256)
        } else {
            options.set(CURLOPT_SSH_KNOWNHOSTS, ssh.knownHosts ?? SSHOptions.defaultKnownHosts)
        }
    }

    func configureMethodAndBody(
        _ method: EasySettings.Method, _ options: inout EasyOptions, context: UnsafeMutableRawPointer
    ) throws(ConnectionError) {
        upload = nil
        let body: RequestBody
        let customMethod: String?
        switch method {
        case .get:
            options.set(CURLOPT_HTTPGET, 1)
            return
        case .head:
            options.set(CURLOPT_NOBODY, 1)
            return
        case .custom(let name):
            options.set(CURLOPT_CUSTOMREQUEST, name)
            return
        case .upload(let name, _):
            guard let requestBody = request.body else { return }
            body = requestBody
            customMethod = name
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
        if let customMethod { options.set(CURLOPT_CUSTOMREQUEST, customMethod) }
    }

    func freeHeaderList() {
        if let headerList { haul_curl_slist_free_all(headerList) }
        headerList = nil
    }
}

extension URL {
    var isHTTP: Bool { URL.isHTTP(scheme: scheme?.lowercased()) }

    /// FTP, FTPS or SFTP: a load with no HTTP head, whose file time stands for Last-Modified.
    var isFileTransfer: Bool { URL.isFileTransfer(scheme: scheme?.lowercased()) }

    /// `isHTTP` of a lowercase scheme (a URL's scheme is made anew each time it is asked).
    static func isHTTP(scheme: String?) -> Bool {
        scheme == "http" || scheme == "https"
    }

    /// `isFileTransfer` of a lowercase scheme.
    static func isFileTransfer(scheme: String?) -> Bool {
        scheme == "ftp" || scheme == "ftps" || scheme == "sftp"
    }
}
