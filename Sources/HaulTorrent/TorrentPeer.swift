import CTorrent

// MARK: - TorrentPeer

/// A peer of a torrent, as aria2's `getPeers` shows one.
public struct TorrentPeer: Sendable, Equatable {
    public var ip: String
    public var port: Int
    public var client: String
    /// The pieces it has, one bit a piece from the high bit of the first byte.
    public var bitfield: [UInt8]
    public var downloadRate: Int
    public var uploadRate: Int
    public var isSeed: Bool
    /// We choke it (it may not download from us) / it chokes us.
    public var amChoking: Bool
    public var peerChoking: Bool

    init(_ plain: haul_ts_peer) {
        ip = String(cText: plain.ip)
        port = Int(plain.port)
        client = String(cText: plain.client)
        bitfield = plain.bitfield.map { Array(UnsafeBufferPointer(start: $0, count: plain.bitfield_size)) } ?? []
        downloadRate = Int(plain.download_rate)
        uploadRate = Int(plain.upload_rate)
        isSeed = plain.seed
        amChoking = plain.choked
        peerChoking = plain.choking
    }
}
