import CTorrent

// MARK: - Asking about a torrent

extension TorrentSession {
    /// A torrent's files, with what of each is had and its priority; nil when the key is unknown
    /// or a magnet link's metadata has not come yet.
    ///
    /// **Threading:** any thread; waits for libtorrent's network thread.
    public func files(of key: UInt64) -> [TorrentFile]? {
        guard let session else { return nil }
        let collected = Collected<TorrentFile>()
        let asked = haul_ts_files(
            session, key,
            { context, file in
                guard let context, let file else { return }
                Collected<TorrentFile>.from(context).items.append(TorrentFile(file.pointee))
            }, collected.context)
        return asked ? collected.items : nil
    }

    /// A torrent's connected peers; nil when the key is unknown.
    ///
    /// **Threading:** any thread; waits for libtorrent's network thread.
    public func peers(of key: UInt64) -> [TorrentPeer]? {
        guard let session else { return nil }
        let collected = Collected<TorrentPeer>()
        let asked = haul_ts_peers(
            session, key,
            { context, peer in
                guard let context, let peer else { return }
                Collected<TorrentPeer>.from(context).items.append(TorrentPeer(peer.pointee))
            }, collected.context)
        return asked ? collected.items : nil
    }

    /// A torrent's trackers; nil when the key is unknown.
    ///
    /// **Threading:** any thread; waits for libtorrent's network thread.
    public func trackers(of key: UInt64) -> [TorrentTracker]? {
        guard let session else { return nil }
        let collected = Collected<TorrentTracker>()
        let asked = haul_ts_trackers(
            session, key,
            { context, tracker in
                guard let context, let tracker else { return }
                Collected<TorrentTracker>.from(context).items.append(TorrentTracker(tracker.pointee))
            }, collected.context)
        return asked ? collected.items : nil
    }

    /// The pieces a torrent has (one bit a piece, from the high bit of the first byte) and how
    /// many it has in all; nil when the key is unknown.
    ///
    /// **Threading:** any thread; waits for libtorrent's network thread.
    public func pieces(of key: UInt64) -> (bits: [UInt8], count: Int)? {
        guard let session else { return nil }
        let collected = Collected<(bits: [UInt8], count: Int)>()
        let asked = haul_ts_pieces(
            session, key,
            { context, bits, size, count in
                guard let context else { return }
                let bytes = bits.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
                Collected<(bits: [UInt8], count: Int)>.from(context).items.append((bytes, Int(count)))
            }, collected.context)
        return asked ? collected.items.first : nil
    }
}

/// What a query's handler collects, handed through C as an unretained pointer (the query
/// returns before the object goes).
private final class Collected<Item> {
    var items: [Item] = []

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer) -> Collected<Item> {
        Unmanaged<Collected<Item>>.fromOpaque(context).takeUnretainedValue()
    }
}
