import CTorrent

// MARK: - TorrentTracker

/// A tracker of a torrent, with the last thing it said.
public struct TorrentTracker: Sendable, Equatable {
    public var url: String
    public var tier: Int
    /// Its last error or message, "" when none.
    public var message: String
    public var isWorking: Bool

    /// A tracker as another program described it (a daemon's announce list).
    public init(url: String, tier: Int, message: String = "", isWorking: Bool = false) {
        self.url = url
        self.tier = tier
        self.message = message
        self.isWorking = isWorking
    }

    init(_ plain: haul_ts_tracker) {
        self.init(
            url: String(cText: plain.url), tier: Int(plain.tier), message: String(cText: plain.message),
            isWorking: plain.working)
    }
}
