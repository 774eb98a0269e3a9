import CCurl
import Foundation

// MARK: - CookieJar

/// The cookies every transfer of one engine shares, once they are turned on: a `ShareHandle`
/// holding the cookie store (and, as every share does, TLS sessions and DNS), read from and
/// written to Netscape-format files (as curl, wget and aria2 keep them). Off, transfers neither
/// keep nor send cookies.
///
/// **Threading:** engine thread only (the engine's commands reach it); the share handle is used
/// by no other thread, so it needs no lock callbacks.
package final class CookieJar {
    /// The shared store once cookies are on; transfers attach to it instead of the engine's
    /// plain share.
    private(set) var share: ShareHandle?

    /// Whether transfers keep and send cookies.
    var isOn: Bool { share != nil }

    package init() {}

    /// Turns cookies on and loads the files at `paths`; returns how many cookies the store holds.
    package func turnOn(loading paths: [String]) throws(CookieError) -> Int {
        if share == nil {
            guard let made = ShareHandle(sharingCookies: true) else {
                throw CookieError("libcurl could not make a cookie store")
            }
            share = made
        }
        return try withHandle { (easy, options: inout EasyOptions) throws(CookieError) -> Int in
            for path in paths { options.set(CURLOPT_COOKIEFILE, path) }
            options.set(CURLOPT_COOKIELIST, "RELOAD")
            try check(options, doing: "read \(paths.joined(separator: ", "))")
            var list: UnsafeMutableRawPointer?
            haul_easy_getinfo_pointer(easy, CURLINFO_COOKIELIST, &list)
            var count = 0
            var item = list?.assumingMemoryBound(to: curl_slist.self)
            while let current = item {
                count += 1
                item = current.pointee.next
            }
            haul_curl_slist_free_all(list?.assumingMemoryBound(to: curl_slist.self))
            return count
        }
    }

    /// Writes the store to `path` in Netscape format, readable by its owner only.
    package func save(to path: String) throws(CookieError) {
        guard isOn else { throw CookieError("cookies are not on, so there are none to save") }
        // Made 0600 first: libcurl writes a new jar with the old file's mode.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CookieError("cannot write \(path): \(String(cString: strerror(errno)))") }
        fchmod(descriptor, 0o600)
        close(descriptor)
        try withHandle { (_, options: inout EasyOptions) throws(CookieError) in
            options.set(CURLOPT_COOKIEJAR, path)
            options.set(CURLOPT_COOKIELIST, "FLUSH")
            try check(options, doing: "write \(path)")
        }
        chmod(path, 0o600)
    }

    // MARK: - Pieces

    /// Runs `body` with a scratch easy handle on the store (it performs no transfer).
    private func withHandle<T>(
        _ body: (UnsafeMutableRawPointer, inout EasyOptions) throws(CookieError) -> T
    ) throws(CookieError) -> T {
        guard let easy = haul_curl_easy_init() else { throw CookieError("libcurl could not allocate a handle") }
        defer { haul_curl_easy_cleanup(easy) }
        var options = EasyOptions(easy: easy)
        share?.attach(&options)
        return try body(easy, &options)
    }

    private func check(_ options: EasyOptions, doing what: String) throws(CookieError) {
        if let failure = options.failure { throw CookieError("cannot \(what): libcurl refused option \(failure)") }
    }
}

// MARK: - CookieError

/// Why cookies could not be read or saved, in words a person can act on.
public struct CookieError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
