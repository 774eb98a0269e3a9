import CTorrent

// MARK: - TorrentTracker

/// A tracker of a torrent, with the last thing it said.
public struct TorrentTracker: Sendable, Equatable {
    public var url: String
    public var tier: Int
    /// Its last error or message, "" when none.
    public var message: String
    public var isWorking: Bool

    init(_ plain: haul_ts_tracker) {
        url = String(cText: plain.url)
        tier = Int(plain.tier)
        message = String(cText: plain.message)
        isWorking = plain.working
    }
}
