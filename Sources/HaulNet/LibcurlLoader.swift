import CCurl

// MARK: - LibcurlLoader

/// libcurl is loaded as haul starts, not linked: the first libcurl call HaulNet makes waits for
/// the load, or loads it (see CCurl.h). A libcurl that cannot be loaded ends the process with a
/// message naming what is missing.
public enum LibcurlLoader {
    /// Starts loading libcurl, and its global set-up, on another CPU than the caller's, beside
    /// whatever the caller does next (`haul` reads its command line meanwhile); returns at once.
    /// With one CPU, does nothing: the first call loads it.
    ///
    /// **Threading:** any thread; meant to be called once, as haul starts (a later call starts a
    /// thread that finds libcurl loaded).
    public static func preload() {
        haul_curl_preload()
    }

    /// Waits for the load `preload` started, if it did, so that the process can exit: exiting
    /// while that thread is still loading would run the libraries' destructors beside their
    /// constructors and corrupt the heap. Returns at once when no load is under way.
    ///
    /// **Threading:** any thread; may block for the rest of the load (a few milliseconds).
    public static func settle() {
        haul_curl_settle()
    }
}
