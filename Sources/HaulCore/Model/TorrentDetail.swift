import HaulTorrent

// MARK: - TorrentDetail

/// What a running torrent is and whom it talks to, beyond its row: its files with their
/// priorities, its peers, its trackers and the pieces it has, as the detail pane and aria2's
/// `tellStatus`, `getFiles` and `getPeers` show them. Asked for part by part (`Parts`): each
/// part waits for libtorrent's network thread.
public struct TorrentDetail: Sendable, Equatable {
    /// The parts of a detail to ask for.
    public struct Parts: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let files = Parts(rawValue: 1)
        public static let peers = Parts(rawValue: 2)
        public static let trackers = Parts(rawValue: 4)
        public static let pieces = Parts(rawValue: 8)
        public static let all: Parts = [.files, .peers, .trackers, .pieces]
    }

    /// The info hash it goes by (v1's, else v2's), when its .torrent said it; "" otherwise.
    public var infoHash = ""
    /// The metainfo's comment and creation date (seconds since 1970, 0 when unsaid); a magnet
    /// link's metadata has neither.
    public var comment = ""
    public var creationDate: Int64 = 0
    /// Its files, their paths inside the download's folder (the torrent's name first): empty
    /// until a magnet link's metadata came, or when not asked for.
    public var files: [TorrentFile] = []
    public var peers: [TorrentPeer] = []
    public var trackers: [TorrentTracker] = []
    /// The pieces it has, one bit a piece from the high bit of the first byte.
    public var pieces: [UInt8] = []

    /// A detail with nothing asked for yet.
    public init() {}

    /// The torrent's name: its folder, or its one file (the first part of every path).
    public var name: String? {
        files.first.flatMap { $0.path.split(separator: "/").first.map(String.init) }
    }

    /// Whether its files are in a folder of their own (aria2's `multi` mode) rather than one file.
    public var isMultiFile: Bool {
        files.count > 1 || files.first?.path.contains("/") == true
    }

    /// The announce list, tier by tier.
    public var announceList: [[String]] {
        var tiers: [Int: [String]] = [:]
        for tracker in trackers { tiers[tracker.tier, default: []].append(tracker.url) }
        return tiers.keys.sorted().compactMap { tiers[$0] }
    }
}
