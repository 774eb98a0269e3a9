import CCurl
import Foundation

// MARK: - StreamPool

/// The connections to hosts that answered over HTTP/2, on a multi handle of their own: at most
/// `Configuration.pooledConnectionsPerHost` to each host, opened together, each carrying up to
/// `streamsPerConnection` transfers as streams.
///
/// On one multi handle libcurl opens a connection for every transfer beyond what the host's
/// connections can carry (a thousand small files asked at once made dozens), and a per-host cap
/// there would also hold back the connections of split downloads and of HTTP/1.1 hosts. So a
/// transfer goes here once its host is known to multiplex (and it does not need a connection of
/// its own); transfers beyond the pool's streams wait inside libcurl for a stream to end.
///
/// Its multi handle is driven as the engine's own is (`MultiHandle`), once a host is learned.
///
/// **Threading:** the engine thread only.
final class StreamPool {
    /// The pool's multi handle; transfers in the pool are added to it.
    let multi: MultiHandle
    /// `scheme://host:port` of each host that answered over HTTP/2.
    private var origins: Set<Origin> = []

    init(connectionsPerHost: Int, streamsPerConnection: Int) {
        multi = MultiHandle(connectionsPerHost: connectionsPerHost, streamsPerConnection: streamsPerConnection)
    }

    // MARK: - Which transfers

    /// Notes that the host of `url` answered over HTTP/2: its later transfers come here.
    func learnMultiplexing(of url: URL) {
        guard let origin = Origin(url) else { return }
        origins.insert(origin)
    }

    /// Whether `request` goes out on the pool: its host multiplexes, and it does not ask for a
    /// connection of its own.
    func takes(_ request: Request) -> Bool {
        guard !origins.isEmpty, !request.ownsConnection, let origin = Origin(request.url) else {
            return false
        }
        return origins.contains(origin)
    }

    /// Whether any transfer may be on the pool: none is before a host is learned, and the loop
    /// then leaves the pool's multi handle alone.
    var isInUse: Bool { !origins.isEmpty }
}
