// MARK: - TorrentActivity

/// What a torrent's running attempt shows beyond a download's speed: its upload, its swarm, and
/// whether it seeds (every wanted piece had, uploading only).
public struct TorrentActivity: Sendable, Equatable {
    /// The info hash it goes by (v1's, else v2's), once known.
    public var infoHash: String
    /// Bytes a second sent to peers.
    public var uploadSpeed: Double
    /// Bytes sent to peers, over every run.
    public var uploaded: Int64
    /// Peers connected, and how many of them are seeds.
    public var peers: Int
    public var seeds: Int
    /// Every wanted piece is had: it uploads only.
    public var seeding: Bool
    /// libtorrent is checking what is on disk (its resume data, or the files).
    public var checking = false
    /// Bytes of the wanted files that were here when this attempt started (an earlier run's,
    /// vouched for by resume data or hashed).
    public var hereAtStart: Int64 = 0
    /// Bytes peers sent that failed their piece's hash (fetched again; libtorrent drops a peer
    /// that keeps sending them).
    public var failedBytes: Int64 = 0
    /// Pieces had, of how many, and their length.
    public var piecesDone: Int
    public var pieceCount: Int
    public var pieceLength: Int

    /// A torrent's activity as its last status gave it (`TorrentStatus`).
    ///
    /// - Parameters:
    ///   - infoHash: The hash it goes by.
    ///   - uploadSpeed: Bytes a second sent.
    ///   - uploaded: Bytes sent, over every run.
    ///   - peers: Peers connected.
    ///   - seeds: Seeds among them.
    ///   - seeding: Whether every wanted piece is had.
    ///   - piecesDone: Pieces had.
    ///   - pieceCount: Pieces in all.
    ///   - pieceLength: A piece's length.
    public init(
        infoHash: String = "", uploadSpeed: Double = 0, uploaded: Int64 = 0, peers: Int = 0, seeds: Int = 0,
        seeding: Bool = false, piecesDone: Int = 0, pieceCount: Int = 0, pieceLength: Int = 0
    ) {
        self.infoHash = infoHash
        self.uploadSpeed = uploadSpeed
        self.uploaded = uploaded
        self.peers = peers
        self.seeds = seeds
        self.seeding = seeding
        self.piecesDone = piecesDone
        self.pieceCount = pieceCount
        self.pieceLength = pieceLength
    }

    /// Uploaded over `size` (0 when the size is unknown).
    ///
    /// - Parameter size: The bytes the torrent's wanted files hold.
    /// - Returns: The share ratio.
    public func ratio(of size: Int64) -> Double {
        size > 0 ? Double(uploaded) / Double(size) : 0
    }
}
