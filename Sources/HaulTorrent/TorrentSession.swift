import CTorrent
import Foundation
import Synchronization

// MARK: - TorrentSession

/// The one BitTorrent session of a process (libtorrent's, with its own threads), and the thread
/// that hands its events out. Torrents are known by keys their adder chooses.
///
/// **Threading:** every method may be called from any thread; those that ask about a torrent wait
/// for libtorrent's network thread. `onEvent` runs on the session's event thread, one event at a
/// time, in order; it must not call `close`.
public final class TorrentSession: Sendable {
    // libtorrent's session is safe to use from any thread (each call is posted to its network
    // thread); the pointer is set once and freed by `close` after the event thread has ended.
    private nonisolated(unsafe) let pointer: OpaquePointer
    private let onEvent: @Sendable (TorrentEvent) -> Void
    /// Set by `close`: the event thread ends, and calls after it do nothing.
    private let closing = Mutex(false)
    private let ended = DispatchSemaphore(value: 0)
    /// How often each torrent's status is asked for (seconds).
    private let statusInterval: Double

    /// Starts a session with `settings`.
    ///
    /// - Parameters:
    ///   - settings: Where it listens, what it announces, its limits.
    ///   - statusInterval: Seconds between status events of a torrent that changes.
    ///   - onEvent: Called on the session's event thread with each event.
    /// - Throws: `TorrentError.engineMissing` or `.sessionFailed`.
    public init(
        settings: TorrentSettings, statusInterval: Double = 1,
        onEvent: @escaping @Sendable (TorrentEvent) -> Void
    ) throws(TorrentError) {
        try TorrentEngine.require()
        var error = [CChar](repeating: 0, count: 512)
        let made = TorrentSession.withPlain(settings) { plain in haul_ts_create(&plain, &error, error.count) }
        guard let made else { throw .sessionFailed(String(cBuffer: error)) }
        pointer = made
        self.onEvent = onEvent
        self.statusInterval = statusInterval
        let thread = Thread { [self] in runEvents() }
        thread.name = "haul-torrent"
        thread.start()
    }

    /// Ends the session: its event thread stops (after the event it is handing out), and its
    /// torrents are dropped as they are (ask for their resume data first). Later calls do nothing.
    ///
    /// **Threading:** any thread but the event thread's; waits for it to end.
    public func close() {
        let first = closing.withLock { closing in
            defer { closing = true }
            return !closing
        }
        guard first else { return }
        haul_ts_wake(pointer)
        ended.wait()
        haul_ts_destroy(pointer)
    }

    private var isClosed: Bool { closing.withLock { $0 } }

    /// The session to call, nil once `close` began (no call may overlap `close`).
    var session: OpaquePointer? { isClosed ? nil : pointer }

    /// Hands events out until `close`, asking for statuses every `statusInterval` seconds.
    private func runEvents() {
        var nextStatus = Date()
        let context = Unmanaged.passUnretained(self).toOpaque()
        while !isClosed {
            let wait = max(0, nextStatus.timeIntervalSinceNow)
            if haul_ts_wait(pointer, Int32(min(wait, 1) * 1000)), !isClosed {
                haul_ts_pop(
                    pointer,
                    { context, event in
                        guard let context, let event, let handed = TorrentEvent(event.pointee) else { return }
                        Unmanaged<TorrentSession>.fromOpaque(context).takeUnretainedValue().onEvent(handed)
                    }, context)
            }
            if nextStatus.timeIntervalSinceNow <= 0 {
                haul_ts_post_status(pointer)
                nextStatus = Date(timeIntervalSinceNow: statusInterval)
            }
        }
        ended.signal()
    }

    /// Asks for a status event of every torrent that changed, now rather than at the next
    /// interval (a torrent that just finished says so at once).
    public func postStatus() {
        guard let session else { return }
        haul_ts_post_status(session)
    }

    // MARK: Settings

    /// Applies new settings to the running session.
    public func apply(_ settings: TorrentSettings) {
        guard let session else { return }
        TorrentSession.withPlain(settings) { plain in haul_ts_apply(session, &plain) }
    }

    /// The TCP port the session listens on, 0 while none.
    public var listenPort: Int {
        session.map { Int(haul_ts_listen_port($0)) } ?? 0
    }

    /// Calls `body` with `settings` as the C struct (its strings live for the call).
    private static func withPlain<Result>(
        _ settings: TorrentSettings, _ body: (inout haul_ts_settings) -> Result
    ) -> Result {
        settings.listenInterfaces.withCString { interfaces in
            settings.peerIDPrefix.withCString { prefix in
                settings.userAgent.withCString { agent in
                    var plain = haul_ts_settings(
                        listen_interfaces: interfaces, peer_id_prefix: prefix, user_agent: agent,
                        enable_dht: settings.enableDHT, enable_lsd: settings.enableLSD,
                        enable_upnp: settings.enableUPnP, enable_natpmp: settings.enableNATPMP,
                        multiple_connections_per_ip: settings.multipleConnectionsPerIP,
                        outgoing_utp: settings.outgoingUTP,
                        download_rate_limit: Int32(clamping: settings.downloadRateLimit),
                        upload_rate_limit: Int32(clamping: settings.uploadRateLimit),
                        connections_limit: Int32(clamping: settings.connectionsLimit),
                        retry_port_bind: Int32(clamping: settings.retryPortBind))
                    return body(&plain)
                }
            }
        }
    }
}
