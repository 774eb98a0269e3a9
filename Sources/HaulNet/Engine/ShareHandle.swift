import CCurl

// MARK: - ShareHandle

/// A libcurl share handle: what the transfers attached to it hold in common. Always TLS
/// sessions (so the many connections of a split resume one handshake instead of each paying a
/// full one) and DNS answers; cookies too when asked (`CookieJar`, once cookies are on).
///
/// **Threading:** engine thread only; no other thread uses the handle, so it needs no lock
/// callbacks.
final class ShareHandle {
    let handle: UnsafeMutableRawPointer
    /// Whether the transfers attached to it keep and send cookies.
    let sharesCookies: Bool

    init?(sharingCookies: Bool) {
        guard let handle = haul_curl_share_init() else { return nil }
        self.handle = handle
        sharesCookies = sharingCookies
        haul_share_setopt_long(handle, CURLSHOPT_SHARE, haul_lock_data_ssl_session)
        haul_share_setopt_long(handle, CURLSHOPT_SHARE, haul_lock_data_dns)
        if sharingCookies { haul_share_setopt_long(handle, CURLSHOPT_SHARE, haul_lock_data_cookie) }
    }

    deinit {
        haul_curl_share_cleanup(handle)
    }

    /// Points a transfer's easy handle at what is shared.
    func attach(_ options: inout EasyOptions) {
        options.set(CURLOPT_SHARE, pointer: handle)
        // An empty file name turns the cookie engine on without reading a file.
        if sharesCookies { options.set(CURLOPT_COOKIEFILE, "") }
    }
}
