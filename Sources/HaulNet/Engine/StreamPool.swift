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
/// The engine loop waits on the pool's sockets beside its own multi handle's
/// (`waitDescriptors`), and drives the pool through libcurl's socket interface (`act`).
///
/// **Threading:** the engine thread only.
final class StreamPool {
    /// The pool's multi handle; transfers in the pool are added to it.
    let multi: UnsafeMutableRawPointer
    /// `scheme://host:port` of each host that answered over HTTP/2.
    private var origins: Set<Origin> = []
    /// The sockets libcurl asked the pool to watch, and for what (`CURL_WAIT_POLLIN`, `…OUT`).
    private var sockets: [curl_socket_t: Int16] = [:]

    init(connectionsPerHost: Int, streamsPerConnection: Int) {
        guard let multi = haul_curl_multi_init() else {
            fatalError("curl_multi_init failed: libcurl could not allocate its multi handle")
        }
        self.multi = multi
        haul_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        haul_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, streamsPerConnection)
        haul_multi_setopt_long(multi, CURLMOPT_PIPELINING, haul_curlpipe_multiplex)
        haul_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
        haul_multi_setopt_socket_callback(multi, CURLMOPT_SOCKETFUNCTION) { _, socket, what, pool, _ in
            guard let pool else { return 0 }
            Unmanaged<StreamPool>.fromOpaque(pool).takeUnretainedValue().watch(socket, for: what)
            return 0
        }
    }

    /// Ends the pool's multi handle; its transfers were taken off it first.
    func close() {
        haul_curl_multi_cleanup(multi)
        sockets.removeAll()
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

    // MARK: - Driving

    /// The pool's sockets, for `curl_multi_poll` to wait on beside the engine's own.
    var waitDescriptors: [curl_waitfd] {
        sockets.map { curl_waitfd(fd: $0.key, events: $0.value, revents: 0) }
    }

    /// Whether any transfer may be on the pool: none is before a host is learned, and the loop
    /// then leaves the pool's multi handle alone.
    var isInUse: Bool { !origins.isEmpty }

    /// How long (ms) the loop may wait before the pool's next timeout; nil for none due.
    var timeoutMilliseconds: Int32? {
        guard isInUse else { return nil }
        var milliseconds = -1
        haul_curl_multi_timeout(multi, &milliseconds)
        return milliseconds < 0 ? nil : Int32(clamping: milliseconds)
    }

    /// Lets libcurl act on the sockets `curl_multi_poll` found ready, then on its due timeouts
    /// (new transfers start from a timeout of zero).
    func act(on ready: [curl_waitfd]) {
        guard isInUse else { return }
        var running: Int32 = 0
        for descriptor in ready where descriptor.revents != 0 {
            var events: Int32 = 0
            if descriptor.revents & Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLPRI) != 0 { events |= CURL_CSELECT_IN }
            if descriptor.revents & Int16(CURL_WAIT_POLLOUT) != 0 { events |= CURL_CSELECT_OUT }
            haul_curl_multi_socket_action(multi, descriptor.fd, events, &running)
        }
        if timeoutMilliseconds == 0 { haul_curl_multi_socket_action(multi, haul_socket_timeout, 0, &running) }
    }

    /// libcurl's word on `socket` (`CURL_POLL_IN`, `…OUT`, `…INOUT` or `…REMOVE`).
    private func watch(_ socket: curl_socket_t, for what: Int32) {
        var events: Int16 = 0
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events |= Int16(CURL_WAIT_POLLIN) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events |= Int16(CURL_WAIT_POLLOUT) }
        if events == 0 { sockets.removeValue(forKey: socket) } else { sockets[socket] = events }
    }
}
