// MARK: - TorrentAddition

/// A torrent to add to a session: its metainfo or magnet link, resume data an earlier run saved,
/// where it is saved, and what is given besides.
public struct TorrentAddition: Sendable {
    /// What the torrent is.
    public enum Source: Sendable, Equatable {
        /// A `.torrent` file's bytes.
        case metainfo([UInt8])
        /// A magnet link (`magnet:?xt=urn:btih:…`); its metadata comes from peers.
        case magnet(String)
    }

    /// The key the session knows it by (events carry it).
    public var key: UInt64
    public var source: Source
    /// Resume data an earlier run saved (`TorrentEvent.resumeData`): what was checked, peers,
    /// the metadata of a magnet link.
    public var resumeData: [UInt8]?
    /// The folder the torrent's files (or its folder) are saved in.
    public var savePath: String
    public var trackers: [String] = []
    public var webSeeds: [String] = []
    /// Peers to connect to at once, `host:port` (a magnet link's `x.pe` are read with it).
    public var peers: [String] = []
    /// A priority (0 skips, 1–7) per file, empty for the default.
    public var filePriorities: [UInt8] = []
    /// Files saved under another path (relative to `savePath`) than the metainfo's, by index.
    public var renamedFiles: [Int: String] = [:]
    public var maxConnections = 0
    public var downloadLimit = 0
    public var uploadLimit = 0
    /// Trust the files on disk as whole without checking them.
    public var seedUnverified = false
    /// Fetch a magnet link's metadata but write nothing until `TorrentSession.release`, so its
    /// files' names can be checked first.
    public var hold = false

    public init(key: UInt64, source: Source, savePath: String) {
        self.key = key
        self.source = source
        self.savePath = savePath
    }
}
