import CCurl

// MARK: - MultiHandle

/// One libcurl multi handle, driven through libcurl's socket interface: libcurl says which
/// sockets to watch and for what (`CURLMOPT_SOCKETFUNCTION`), the engine loop polls them with
/// the others (`appendWaitDescriptors`), and `act(on:)` lets libcurl act on those found ready and on
/// its due timeouts. The engine has two, driven the same way: its own (`EngineLoop`) and the
/// stream pool's (`StreamPool`). A socket is one handle's only: the two share TLS sessions and
/// DNS answers, never connections.
///
/// **Threading:** the engine thread only.
final class MultiHandle {
    /// The handle, for `curl_multi_add_handle` and `curl_multi_remove_handle`.
    let pointer: UnsafeMutableRawPointer
    /// The sockets libcurl asked to be watched, and for what (`CURL_WAIT_POLLIN`, `…OUT`).
    private var sockets: [curl_socket_t: Int16] = [:]

    /// A multi handle that multiplexes HTTP/2 streams.
    ///
    /// - Parameters:
    ///   - connectionsPerHost: `CURLMOPT_MAX_HOST_CONNECTIONS` (0: no cap).
    ///   - totalConnections: `CURLMOPT_MAX_TOTAL_CONNECTIONS` (0: no cap).
    ///   - streamsPerConnection: `CURLMOPT_MAX_CONCURRENT_STREAMS`, nil for libcurl's.
    init(connectionsPerHost: Int, totalConnections: Int = 0, streamsPerConnection: Int? = nil) {
        guard let multi = haul_curl_multi_init() else {
            fatalError("curl_multi_init failed: libcurl could not allocate its multi handle")
        }
        pointer = multi
        haul_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        haul_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, totalConnections)
        if let streamsPerConnection {
            haul_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, streamsPerConnection)
        }
        haul_multi_setopt_long(multi, CURLMOPT_PIPELINING, haul_curlpipe_multiplex)
        haul_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
        haul_multi_setopt_socket_callback(multi, CURLMOPT_SOCKETFUNCTION) { _, socket, what, handle, _ in
            guard let handle else { return 0 }
            Unmanaged<MultiHandle>.fromOpaque(handle).takeUnretainedValue().watch(socket, for: what)
            return 0
        }
    }

    /// Keeps up to `count` idle connections open for reuse (`CURLMOPT_MAXCONNECTS`).
    func keepConnections(_ count: Int) {
        haul_multi_setopt_long(pointer, CURLMOPT_MAXCONNECTS, count)
    }

    /// Ends the handle; its transfers were taken off it first.
    func close() {
        haul_curl_multi_cleanup(pointer)
        sockets.removeAll()
    }

    // MARK: - Driving

    /// Adds the handle's sockets to the loop's poll.
    ///
    /// - Parameter descriptors: The descriptors the loop polls.
    func appendWaitDescriptors(to descriptors: inout [curl_waitfd]) {
        for (socket, events) in sockets { descriptors.append(curl_waitfd(fd: socket, events: events, revents: 0)) }
    }

    /// How long (ms) the loop may wait before the handle's next timeout; nil for none due.
    var timeoutMilliseconds: Int32? {
        var milliseconds = -1
        haul_curl_multi_timeout(pointer, &milliseconds)
        return milliseconds < 0 ? nil : Int32(clamping: milliseconds)
    }

    /// Lets libcurl act on this handle's sockets among those the poll found ready, then on its
    /// due timeouts (a transfer just added starts from a timeout of zero).
    ///
    /// - Parameter ready: The poll's descriptors, with their `revents`; another handle's are
    ///   passed over.
    func act(on ready: [curl_waitfd]) {
        var running: Int32 = 0
        for descriptor in ready where descriptor.revents != 0 && sockets[descriptor.fd] != nil {
            var events: Int32 = 0
            if descriptor.revents & Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLPRI) != 0 { events |= CURL_CSELECT_IN }
            if descriptor.revents & Int16(CURL_WAIT_POLLOUT) != 0 { events |= CURL_CSELECT_OUT }
            haul_curl_multi_socket_action(pointer, descriptor.fd, events, &running)
        }
        if timeoutMilliseconds == 0 { haul_curl_multi_socket_action(pointer, haul_socket_timeout, 0, &running) }
    }

    /// Reads every transfer libcurl reports done: `each` hears its `CURLINFO_PRIVATE` id and its
    /// result.
    func readFinished(_ each: (UInt64, CURLcode) -> Void) {
        var remaining: Int32 = 0
        while let message = haul_curl_multi_info_read(pointer, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var idPointer: UnsafeMutableRawPointer?
            haul_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &idPointer)
            each(UInt64(UInt(bitPattern: idPointer)), message.pointee.data.result)
        }
    }

    /// libcurl's word on `socket` (`CURL_POLL_IN`, `…OUT`, `…INOUT` or `…REMOVE`).
    private func watch(_ socket: curl_socket_t, for what: Int32) {
        var events: Int16 = 0
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events |= Int16(CURL_WAIT_POLLIN) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events |= Int16(CURL_WAIT_POLLOUT) }
        if events == 0 { sockets.removeValue(forKey: socket) } else { sockets[socket] = events }
    }
}
