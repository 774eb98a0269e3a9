import CTorrent

// MARK: - TorrentEvent

/// What a session reports about a torrent (by its key) or about itself.
public enum TorrentEvent: Sendable, Equatable {
    case status(UInt64, TorrentStatus)
    /// A magnet link's metadata arrived (its files: `TorrentSession.files(of:)`).
    case metadata(UInt64)
    /// Every wanted piece is downloaded and checked.
    case finished(UInt64)
    /// The torrent stopped on an error; `disk` when writing or reading its files failed.
    case failed(UInt64, String, disk: Bool)
    /// The torrent's resume data, to keep for the next run.
    case resumeData(UInt64, [UInt8])
    /// A piece failed its hash check (a peer sent bad data).
    case hashFailed(UInt64, piece: Int)
    /// A peer (`address`) was dropped for sending bad data.
    case peerBanned(UInt64, address: String)
    case trackerFailed(UInt64, String)
    /// The session listens on `port`.
    case listening(port: Int)
    case listenFailed(String)
    /// The torrent is gone from the session.
    case removed(UInt64)

    /// The event of `plain`, or nil for a kind this does not know.
    init?(_ plain: haul_ts_event) {
        let key = plain.key
        let message = String(cText: plain.message)
        let data = plain.data.map { bytes in
            Array(UnsafeRawBufferPointer(start: bytes, count: plain.size))
        }
        switch plain.kind {
        case HAUL_TS_STATUS:
            guard let status = plain.status else { return nil }
            self = .status(key, TorrentStatus(status.pointee))
        case HAUL_TS_METADATA: self = .metadata(key)
        case HAUL_TS_FINISHED: self = .finished(key)
        case HAUL_TS_ERROR: self = .failed(key, message, disk: plain.code != 0)
        case HAUL_TS_RESUME_DATA: self = .resumeData(key, data ?? [])
        case HAUL_TS_HASH_FAILED: self = .hashFailed(key, piece: Int(plain.number))
        case HAUL_TS_PEER_BANNED: self = .peerBanned(key, address: message)
        case HAUL_TS_TRACKER_ERROR: self = .trackerFailed(key, message)
        case HAUL_TS_LISTENING: self = .listening(port: Int(plain.number))
        case HAUL_TS_LISTEN_FAILED: self = .listenFailed(message)
        case HAUL_TS_REMOVED: self = .removed(key)
        default: return nil
        }
    }
}
