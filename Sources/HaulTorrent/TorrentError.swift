// MARK: - TorrentError

/// Why the torrent engine could not do what was asked, in words a person can act on.
public enum TorrentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The engine library (or libtorrent under it) could not be loaded.
    case engineMissing(String)
    /// libtorrent could not start a session (`reason`: its words).
    case sessionFailed(String)
    /// A metainfo libtorrent refuses (`reason`: its words).
    case badMetainfo(String)
    /// A torrent the session would not take.
    case refused(String)

    public var description: String {
        switch self {
        case .engineMissing(let reason): "BitTorrent is not available: \(reason)"
        case .sessionFailed(let reason): "the BitTorrent session could not start: \(reason)"
        case .badMetainfo(let reason): "not a usable .torrent: \(reason)"
        case .refused(let reason): reason
        }
    }
}
