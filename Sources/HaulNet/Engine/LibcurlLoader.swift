import CCurl

// MARK: - LibcurlLoader

/// libcurl is loaded as haul starts, not linked: the first libcurl call HaulNet makes waits for
/// the load, or loads it (see CCurl.h). A libcurl that cannot be loaded ends the process with a
/// message naming what is missing.
public enum LibcurlLoader {
    /// Starts loading libcurl, and its global set-up, on a new thread placed on another CPU than
    /// the caller's when there is one, beside whatever the caller does next. The thread then runs
    /// `continuation` with whether libcurl loaded, and lives as long as it runs: the shared
    /// engine's loop runs on it (a thread made while the load is under way would wait for it to
    /// end, and start on its creator's CPU). Meanwhile the caller sets up OpenSSL as
    /// `curl_global_init` would (its configuration file read), which libcurl then
    /// finds done. Returns false, having started nothing, when no thread could be made: the
    /// first call then loads, and `continuation` is not run.
    ///
    /// **Threading:** any thread; meant to be called once, as haul starts (a later call starts a
    /// thread that finds libcurl loaded). Returns without waiting for the load.
    static func preload(then continuation: @escaping @Sendable (_ loaded: Bool) -> Void) -> Bool {
        let context = Unmanaged.passRetained(Continuation(continuation)).toOpaque()
        let started = haul_curl_preload(
            { context, loaded in
                guard let context else { return }
                Unmanaged<Continuation>.fromOpaque(context).takeRetainedValue().run(loaded)
            }, context)
        if !started { Unmanaged<Continuation>.fromOpaque(context).release() }
        return started
    }

    /// Returns once libcurl is loaded, loading it if need be; one that cannot be loaded is said on
    /// stderr and ends the process (exit status 1), as the first call to it would.
    ///
    /// **Threading:** any thread; may block for a load under way.
    static func require() {
        haul_curl_require()
    }

    /// Waits for the load `preload` started, if it did, so that the process can exit: exiting
    /// while that thread is still loading would run the libraries' destructors beside their
    /// constructors and corrupt the heap. Returns at once when no load is under way.
    ///
    /// **Threading:** any thread; may block for the rest of the load (a few milliseconds).
    public static func settle() {
        haul_curl_settle()
    }

    /// A continuation handed through C as one retained reference.
    private final class Continuation: Sendable {
        let run: @Sendable (Bool) -> Void

        init(_ run: @escaping @Sendable (Bool) -> Void) {
            self.run = run
        }
    }
}
