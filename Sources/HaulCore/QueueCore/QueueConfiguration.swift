import Foundation
import HaulNet
import HaulText
import HaulTorrent

// MARK: - QueueConfiguration

/// How a `DownloadQueue` runs: its limits, the options every download starts from, and what
/// each request carries (`DownloadQueue.Configuration`).
public struct QueueConfiguration: Sendable {
    public var maxConcurrentDownloads = BuiltInOptions.maxConcurrentDownloads
    /// Downloads from one host that may be in flight at once as streams of its HTTP/2
    /// connections, -j's among them (the others beyond -j): what the engine's pooled connections
    /// to one host carry (`ConnectionEngine.Configuration.streamsPerHost`).
    public var streamWindow = ConnectionEngine.Configuration().streamsPerHost
    /// A host whose first download agreed on HTTP/2 sooner than this (seconds, a TLS handshake
    /// of two round trips of 5 ms) is near: it gets no streams beyond -j (on loopback they cost
    /// a fifth more time, and won nothing).
    public var nearAnswer = 0.01
    /// Active downloads from one host (scheme, host and port) at the most; 0 for no cap.
    /// A download whose host is full waits while later ones from other hosts start.
    public var maxConnectionsPerHost = 0
    /// Options every download starts from (the command line's); its own options win.
    public var defaults = DownloadOptions()
    /// Where files go when neither the download nor `defaults` names a `dir`.
    public var directory = "."
    public var tls = TLSOptions()
    /// Logins for downloads that name no `http-user`, by host.
    public var netrc: Netrc?
    /// When a connection of a split download counts as a laggard, to be replaced.
    public var patience = SegmentPlanner.Patience()
    /// Keep every response header a download gets, not only those a detail view shows
    /// (`--verbose`).
    public var keepsEveryHeader = false
    /// Whether a whole body of at most `resumable-above` bytes (or of unknown length, until it
    /// passes that) is written to a file with no name, named when complete (`UnnamedFile`):
    /// one directory change and no store write per file, and nothing left by a crash. Off, or
    /// where the file system cannot, every body goes to `NAME.part`, named in the store first.
    public var unnamedFiles = true
    /// aria2's `--metalink-location`: a followed Metalink's mirrors in these countries (lower
    /// case) first among those of equal priority.
    public var metalinkLocations: [String] = []
    /// BitTorrent's queue options (`listen-port`, `interface`, `enable-dht`,
    /// `max-overall-upload-limit`), as `QueueSettings` holds them.
    public var listenPort = ListenPorts.builtIn
    public var interface: String?
    public var enableDHT = true
    public var maxOverallUploadLimit = SpeedLimit.none

    /// How the BitTorrent session listens and finds peers under these options.
    var torrentSettings: TorrentSettings {
        // An IPv6 address is bracketed before its port, as libtorrent reads it.
        let host = interface.map { $0.contains(":") && !$0.hasPrefix("[") ? "[\($0)]" : $0 }
        var settings = TorrentSettings(
            listenInterfaces: host.map { "\($0):\(listenPort.first)" }
                ?? "0.0.0.0:\(listenPort.first),[::]:\(listenPort.first)",
            enableDHT: enableDHT)
        settings.retryPortBind = listenPort.last - listenPort.first
        settings.uploadRateLimit = Int(clamping: maxOverallUploadLimit.cap ?? 0)
        return settings
    }
    /// The queue's defaults: aria2's, with every body at most `resumable-above` unnamed until whole.
    public init() {}
}

// MARK: - Requests

extension QueueConfiguration {
    /// The request for `url` that `options` (already merged over the defaults) describe: its
    /// timeout, TLS settings, User-Agent, Referer, headers, login (the options' own, else the
    /// netrc entry for the host, for the user's own downloads only), proxies and speed limits.
    /// Every attempt, a dry run and a body sent to stdout ask alike. Built as the request's
    /// fields, boxed once.
    ///
    /// - Parameters:
    ///   - url: The URI to load (a mirror, or where a redirect led).
    ///   - options: The download's options in effect.
    /// - Returns: The request an attempt sends.
    public func request(for url: URL, options: EffectiveOptions) -> Request {
        var request = Request.Fields(url: url)
        request.timeoutInterval = Double(options.timeout)
        request.connectTimeout = options.connectTimeout.map(Double.init)
        // A download's own TLS choices (kept with it across restarts) over the run's.
        request.tls = TLSOptions(
            verifyPeer: options.checkCertificate ?? tls.verifyPeer, caFile: options.caCertificate ?? tls.caFile)
        if let userAgent = options.userAgent { request.userAgent = userAgent }
        if let referer = options.referer { request.headers.set("Referer", referer) }
        for header in options.headers {
            if let field = DownloadOptions.Values.headerField(header) { request.headers.add(field.name, field.value) }
        }
        // A download a network client or a list loaded by URL added logs in only as its source
        // said: with none of this user's netrc logins, SSH keys or agent.
        let isUsers = options.given.addedBy.isUsers
        let scheme = url.scheme ?? ""
        let ftp =
            ASCIIText.equals(scheme.utf8, ignoringCase: "ftp") || ASCIIText.equals(scheme.utf8, ignoringCase: "ftps")
        if ftp, let user = options.ftpUser {
            request.credentials = Credentials(user: user, password: options.ftpPasswd ?? "")
        } else if !ftp, let user = options.httpUser {
            request.credentials = Credentials(user: user, password: options.httpPasswd ?? "")
        } else if isUsers, let netrc, let host = request.url.host, let entry = netrc.entry(for: host) {
            request.credentials = Credentials(user: entry.login, password: entry.password)
        }
        request.proxies = Proxies(
            all: options.allProxy, http: options.httpProxy, https: options.httpsProxy,
            bypass: options.noProxy)
        request.maxReceiveSpeed = options.maxDownloadLimit?.cap
        // A trickle ends too, not only a stall (aria2's `lowest-speed-limit=0` is off: then only
        // a transfer with no byte for the timeout ends).
        request.lowestSpeed = options.lowestSpeedLimit.cap
        if options.ftpPasv == false { request.ftpActive = true }
        request.ssh.privateKey = options.sshPrivateKey
        request.ssh.mayUseOwnIdentity = isUsers
        request.ssh.knownHosts = options.sshKnownHosts
        options.sshHostKeyMD?.pin(&request.ssh)
        return Request(request)
    }
}
