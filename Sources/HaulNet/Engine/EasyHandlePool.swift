import CCurl

// MARK: - EasyHandlePool

/// libcurl easy handles kept for the next transfer rather than freed: making one and freeing
/// it cost more than the rest of a small file's start.
/// A handle is reset as it is given back, so a transfer's first hop takes it as it is, and
/// `Transfer.configure` resets it only before a later hop (a redirect, a login):
/// `curl_easy_reset` clears every option, the error buffer and the login state, and keeps only
/// what the engine shares between transfers anyway (connections, DNS and TLS sessions through
/// the share handles, which a kept handle is taken off).
///
/// **Threading:** the engine thread only.
final class EasyHandlePool {
    /// At most this many idle handles are kept.
    static let limit = 32

    private var idle: [UnsafeMutableRawPointer] = []
    /// The receive buffer size transfers ask for (`Transfer.configure` sets it on each hop).
    let bufferSize: Int

    init(bufferSize: Int) {
        self.bufferSize = bufferSize
    }

    /// An idle handle, or a new one (nil when libcurl cannot allocate one).
    func take() -> UnsafeMutableRawPointer? {
        EngineThread.precondition()
        return idle.popLast() ?? haul_curl_easy_init()
    }

    /// Keeps `easy` (off the multi handle) for a later transfer when it is `reusable` (its last
    /// hop ended well) and takes a new transfer's settings; frees it otherwise, or when enough
    /// are kept. A kept handle is reset and taken off its share: a reset leaves it on, and the
    /// share (the cookie jar's) may be let go before the handle is used again. libcurl refuses
    /// a new receive buffer size while a handle still holds its buffer (after a transfer it
    /// cut short), so the size is tried here, not found out by the next transfer.
    func give(_ easy: UnsafeMutableRawPointer, reusable: Bool) {
        EngineThread.precondition()
        guard reusable, idle.count < EasyHandlePool.limit else { return haul_curl_easy_cleanup(easy) }
        haul_curl_easy_reset(easy)
        guard haul_easy_setopt_pointer(easy, CURLOPT_SHARE, nil) == CURLE_OK,
            haul_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, bufferSize) == CURLE_OK
        else { return haul_curl_easy_cleanup(easy) }
        idle.append(easy)
    }

    /// Frees every idle handle (before the share handles they use are freed).
    func drain() {
        EngineThread.precondition()
        for easy in idle { haul_curl_easy_cleanup(easy) }
        idle.removeAll()
    }
}
