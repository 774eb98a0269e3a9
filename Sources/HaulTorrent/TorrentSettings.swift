// MARK: - TorrentSettings

/// How the one BitTorrent session of a process runs: where it listens, what it announces itself
/// as, which discovery it uses, and its limits. Rates are bytes a second, 0 for none.
public struct TorrentSettings: Sendable, Equatable {
    /// libtorrent's listen interfaces: `0.0.0.0:6881,[::]:6881`, `127.0.0.1:0` (any free port).
    public var listenInterfaces: String
    /// The peer id's prefix (Azureus style, `-HL0100-`) and the User-Agent sent to trackers.
    public var peerIDPrefix: String
    public var userAgent: String
    public var enableDHT: Bool
    public var enableLSD: Bool
    public var enableUPnP: Bool
    public var enableNATPMP: Bool
    /// Whether peers on one address may each be connected (several seeders on one host).
    public var multipleConnectionsPerIP: Bool
    public var downloadRateLimit: Int
    public var uploadRateLimit: Int
    /// Peer connections in all (0: libtorrent's default).
    public var connectionsLimit: Int
    /// How many ports after the listen interfaces' are tried when theirs is taken.
    public var retryPortBind = 10
    /// Whether connections to peers try uTP before TCP (libtorrent falls back to TCP only after
    /// uTP's connect timeout, some 5 s a TCP-only peer); peers may connect over uTP either way.
    public var outgoingUTP = false

    public init(
        listenInterfaces: String = "0.0.0.0:6881,[::]:6881", peerIDPrefix: String = "-HL0100-",
        userAgent: String = "haul", enableDHT: Bool = true, enableLSD: Bool = false, enableUPnP: Bool = false,
        enableNATPMP: Bool = false, multipleConnectionsPerIP: Bool = true, downloadRateLimit: Int = 0,
        uploadRateLimit: Int = 0, connectionsLimit: Int = 0
    ) {
        self.listenInterfaces = listenInterfaces
        self.peerIDPrefix = peerIDPrefix
        self.userAgent = userAgent
        self.enableDHT = enableDHT
        self.enableLSD = enableLSD
        self.enableUPnP = enableUPnP
        self.enableNATPMP = enableNATPMP
        self.multipleConnectionsPerIP = multipleConnectionsPerIP
        self.downloadRateLimit = downloadRateLimit
        self.uploadRateLimit = uploadRateLimit
        self.connectionsLimit = connectionsLimit
    }
}
