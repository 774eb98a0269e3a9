import CTorrent

// MARK: - TorrentPeer

/// A peer of a torrent, as aria2's `getPeers` shows one.
public struct TorrentPeer: Sendable, Equatable {
    public var ip: String
    public var port: Int
    public var client: String
    /// Its peer id (20 bytes; aria2's `getPeers` gives it percent-encoded).
    public var peerID: [UInt8]
    /// The pieces it has, one bit a piece from the high bit of the first byte.
    public var bitfield: [UInt8]
    public var downloadRate: Int
    public var uploadRate: Int
    public var isSeed: Bool
    /// We choke it (it may not download from us) / it chokes us.
    public var amChoking: Bool
    public var peerChoking: Bool

    /// A peer as another program described it (a daemon's `getPeers`).
    public init(
        ip: String, port: Int, client: String = "", peerID: [UInt8] = [], bitfield: [UInt8] = [],
        downloadRate: Int = 0, uploadRate: Int = 0, isSeed: Bool = false, amChoking: Bool = true,
        peerChoking: Bool = true
    ) {
        self.ip = ip
        self.port = port
        self.client = client
        self.peerID = peerID
        self.bitfield = bitfield
        self.downloadRate = downloadRate
        self.uploadRate = uploadRate
        self.isSeed = isSeed
        self.amChoking = amChoking
        self.peerChoking = peerChoking
    }

    init(_ plain: haul_ts_peer) {
        self.init(
            ip: String(cText: plain.ip), port: Int(plain.port), client: String(cText: plain.client),
            peerID: plain.peer_id.map { Array(UnsafeBufferPointer(start: $0, count: 20)) } ?? [],
            bitfield: plain.bitfield.map { Array(UnsafeBufferPointer(start: $0, count: plain.bitfield_size)) } ?? [],
            downloadRate: Int(plain.download_rate), uploadRate: Int(plain.upload_rate), isSeed: plain.seed,
            amChoking: plain.choked, peerChoking: plain.choking)
    }
}
