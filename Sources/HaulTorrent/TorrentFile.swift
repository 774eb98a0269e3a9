import CTorrent

// MARK: - TorrentFile

/// One file of a torrent: where it goes inside the torrent's folder, how long it is, and, in a
/// session, how much of it is had and how much it is wanted.
public struct TorrentFile: Sendable, Equatable {
    /// The path inside the torrent's folder, `/`-separated, as libtorrent read it.
    public var path: String
    public var size: Int64
    /// Its offset in the torrent's bytes.
    public var offset: Int64
    /// Bytes of it downloaded and checked (0 when read from a metainfo).
    public var done: Int64
    /// 0 (skipped) to 7; 4 is the default.
    public var priority: Int
    /// A pad file (BEP 47): alignment, never written.
    public var isPad: Bool
    /// A symbolic link (BEP 47) rather than a file.
    public var isSymlink: Bool

    public init(
        path: String, size: Int64, offset: Int64 = 0, done: Int64 = 0, priority: Int = 4, isPad: Bool = false,
        isSymlink: Bool = false
    ) {
        self.path = path
        self.size = size
        self.offset = offset
        self.done = done
        self.priority = priority
        self.isPad = isPad
        self.isSymlink = isSymlink
    }

    init(_ file: haul_ts_file) {
        self.init(
            path: String(cText: file.path), size: file.size, offset: file.offset, done: file.done,
            priority: Int(file.priority), isPad: file.pad, isSymlink: file.symlink)
    }
}
