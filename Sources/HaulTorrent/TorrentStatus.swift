import CTorrent

// MARK: - TorrentStatus

/// Where a torrent of a session stands: what is had, how fast it moves each way, its swarm.
public struct TorrentStatus: Sendable, Equatable {
    public var name: String
    public var infoHash: String
    public var hasMetadata: Bool
    public var isPaused: Bool
    public var isChecking: Bool
    /// Every piece is had, and the torrent uploads only.
    public var isSeeding: Bool
    /// Every wanted piece is had (the whole torrent, or the files selected).
    public var isFinished: Bool
    public var totalSize: Int64
    public var totalWanted: Int64
    public var totalWantedDone: Int64
    /// Bytes checked and on disk, wanted or not.
    public var totalDone: Int64
    public var uploaded: Int64
    public var downloaded: Int64
    /// Bytes downloaded since the torrent was added this run (what it had before is the rest
    /// of `totalDone`).
    public var downloadedHere: Int64
    /// Bytes that failed their piece's hash this run (a bad or hostile peer's), dropped.
    public var failedBytes: Int64
    public var downloadRate: Int
    public var uploadRate: Int
    public var peers: Int
    public var seeds: Int
    public var seedingSeconds: Int64
    public var pieceLength: Int
    public var pieceCount: Int
    public var piecesDone: Int

    public init(name: String = "", infoHash: String = "") {
        self.name = name
        self.infoHash = infoHash
        hasMetadata = false
        isPaused = false
        isChecking = false
        isSeeding = false
        isFinished = false
        totalSize = 0
        totalWanted = 0
        totalWantedDone = 0
        totalDone = 0
        uploaded = 0
        downloaded = 0
        downloadedHere = 0
        failedBytes = 0
        downloadRate = 0
        uploadRate = 0
        peers = 0
        seeds = 0
        seedingSeconds = 0
        pieceLength = 0
        pieceCount = 0
        piecesDone = 0
    }

    init(_ plain: haul_ts_status) {
        self.init(name: String(cText: plain.name), infoHash: String(cText: plain.info_hash))
        hasMetadata = plain.has_metadata
        isPaused = plain.paused
        isChecking = plain.checking
        isSeeding = plain.seeding
        isFinished = plain.finished
        totalSize = plain.total_size
        totalWanted = plain.total_wanted
        totalWantedDone = plain.total_wanted_done
        totalDone = plain.total_done
        uploaded = plain.all_time_upload
        downloaded = plain.all_time_download
        downloadedHere = plain.downloaded_here
        failedBytes = plain.failed_bytes
        downloadRate = Int(plain.download_rate)
        uploadRate = Int(plain.upload_rate)
        peers = Int(plain.peers)
        seeds = Int(plain.seeds)
        seedingSeconds = plain.seeding_seconds
        pieceLength = Int(plain.piece_length)
        pieceCount = Int(plain.piece_count)
        piecesDone = Int(plain.pieces_done)
    }
}
