import CCurl
import Foundation
import Synchronization

// MARK: - ConnectionEngine

/// Runs every transfer of its connections on one thread that owns a libcurl multi handle and
/// all easy handles. Other threads reach it only through `submit`, which posts a command to the
/// mailbox and wakes the thread with `curl_multi_wakeup`.
///
/// Connections to the same host are reused (keep-alive, HTTP/2 multiplexing where offered).
///
/// **Threading:** every public method is safe from any thread.
public final class ConnectionEngine: Sendable {
    /// Limits and tuning for one engine.
    public struct Configuration: Sendable {
        /// Open connections to one host at the most (0: no cap).
        public var maxConnectionsPerHost = 0
        /// Open connections in all at the most (0: no cap).
        public var maxTotalConnections = 0
        /// libcurl's receive buffer per transfer; large, so a fast transfer is not thousands of
        /// tiny callbacks.
        public var receiveBufferSize = 1024 * 1024
        /// Connections to one host that answered over HTTP/2, for the transfers that share them
        /// (`StreamPool`): opened together, so a long list of small files from that host has
        /// more streams in flight than one connection's.
        public var pooledConnectionsPerHost = 4
        /// Streams each such connection carries at the most (fewer where the server says so).
        /// nginx's default.
        public var streamsPerConnection = 128
        /// The transfers one host's pooled connections carry at once.
        public var streamsPerHost: Int { pooledConnectionsPerHost * streamsPerConnection }
        /// No cap on connections, a 1 MiB receive buffer, four pooled connections of 128 streams a host.
        public init() {}
    }

    /// What other threads ask of the engine thread.
    enum Command: Sendable {
        case start(Connection)
        case cancel(UInt64)
        case redirectDecision(UInt64, Request?)
        case disposition(UInt64, ResponseDisposition)
        case challengeDecision(UInt64, ChallengeDisposition)
        case resumeReceiving(UInt64)
        case setMaxReceiveSpeed(UInt64, Int64?)
        case limitDownload(UInt64, Int64)
        case setMaxOverallReceiveSpeed(Int64?)
        case cookies(CookieCommand)
        case shutdown
    }

    /// The multi handle as other threads see it: only for `curl_multi_wakeup`, which libcurl
    /// documents as callable from any thread. It lives inside the mailbox's lock.
    struct WakeHandle: @unchecked Sendable {
        let multi: UnsafeMutableRawPointer
    }

    /// The mailbox, and the multi handle to wake once the engine thread has made it.
    struct Mailbox: ~Copyable {
        var commands: [Command] = []
        var wake: WakeHandle?
        var stopped = false
        /// libcurl could not be loaded, so no thread runs this engine: a command ends haul,
        /// saying why, as a first call to libcurl does.
        var unloadable = false
    }

    /// What `ps -L` and debuggers call an engine's thread.
    static let threadName = "haul.engine"

    /// The engine the rest of haul shares, with the default configuration. Its thread is the one
    /// that loads libcurl as haul starts (`startShared`), then runs the engine's loop.
    public static let shared = ConnectionEngine(configuration: Configuration(), loadingLibcurl: true)

    public let configuration: Configuration
    let mailbox = Mutex(Mailbox())
    /// The delegate messages of the loop's current turn (`DeliveryBatch`).
    let deliveries = DeliveryBatch()

    /// An engine of its own, on a thread of its own (tests).
    ///
    /// - Parameter configuration: Its limits; the defaults unless a test needs others.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, loadingLibcurl: false)
    }

    private init(configuration: Configuration, loadingLibcurl: Bool) {
        self.configuration = configuration
        if loadingLibcurl, LibcurlLoader.preload(then: { [self] loaded in run(afterLoading: loaded) }) { return }
        let thread = Thread { [self] in runLoop() }
        thread.name = ConnectionEngine.threadName
        thread.start()
    }

    /// Makes the shared engine as haul starts: libcurl's load (its 27 libraries) runs
    /// on another CPU beside the caller's work, and the thread that made it runs the engine. A
    /// thread made during the load would wait for it (glibc's loader lock), then start on its
    /// maker's CPU, delaying the first transfer of a run of small files.
    ///
    /// **Threading:** any thread; returns without waiting for the load, once the caller has set
    /// up OpenSSL for it (`LibcurlLoader.preload`).
    public static func startShared() {
        _ = shared
    }

    /// The loop, on the calling thread (the engine thread from now on) until `shutdown`.
    private func runLoop() {
        EngineThread.enter()
        EngineLoop(engine: self).run()
    }

    /// On the thread that loaded libcurl. A libcurl that could not be loaded ends haul at this
    /// engine's first command rather than now: `haul --help` needs none.
    private func run(afterLoading loaded: Bool) {
        guard loaded else {
            let waiting = mailbox.withLock { mailbox in
                mailbox.unloadable = true
                return !mailbox.commands.isEmpty
            }
            if waiting { LibcurlLoader.require() }
            return
        }
        Thread.current.name = ConnectionEngine.threadName
        runLoop()
    }

    /// Caps the receive speed of all this engine's transfers together (bytes a second; nil for
    /// none). Transfers draw from one shared budget, each also within its own cap. Takes effect
    /// at once, for running transfers too.
    ///
    /// - Parameter bytesPerSecond: The shared cap, or nil to lift it. Safe from any thread.
    public func setMaxOverallReceiveSpeed(_ bytesPerSecond: Int64?) {
        submit(.setMaxOverallReceiveSpeed(bytesPerSecond))
    }

    /// Turns cookies on for every later transfer of this engine: they all share one store,
    /// which first takes the cookies of the Netscape-format files at `paths`. Returns how many
    /// cookies the store then holds. Waits for the engine thread; do not call it from a
    /// delegate queue the engine waits on.
    ///
    /// - Parameter paths: Cookie files to load (`--load-cookies`); empty to start with none.
    /// - Returns: How many cookies the store holds after loading.
    /// - Throws: `CookieError` when libcurl cannot make the store or refuses to read the files
    ///   (a missing or unreadable file is read as holding no cookies, as libcurl reads it).
    public func useCookies(loadingFrom paths: [String]) throws(CookieError) -> Int {
        try perform { reply in .cookies(.turnOn(paths, reply)) }
    }

    /// Writes the cookie store to `path` (Netscape format, mode 0600). Waits for the engine thread.
    ///
    /// - Parameter path: The file to write (`--save-cookies`); replaced if it exists.
    /// - Throws: `CookieError` when cookies are not on or the file cannot be written.
    public func saveCookies(to path: String) throws(CookieError) {
        try perform { reply in .cookies(.save(path, reply)) }
    }

    /// What the engine thread does with cookies; `reply` runs on the engine thread.
    enum CookieCommand: Sendable {
        case turnOn([String], @Sendable (Result<Int, CookieError>) -> Void)
        case save(String, @Sendable (Result<Void, CookieError>) -> Void)

        /// Replies `error` without doing anything (the engine stopped first).
        func refuse(_ error: CookieError) {
            switch self {
            case .turnOn(_, let reply): reply(.failure(error))
            case .save(_, let reply): reply(.failure(error))
            }
        }
    }

    /// Submits the command `make` builds and waits for its reply (an engine that has stopped
    /// gives none).
    private func perform<Value: Sendable>(
        _ make: (@escaping @Sendable (Result<Value, CookieError>) -> Void) -> Command
    )
        throws(CookieError) -> Value
    {
        let result = Mutex<Result<Value, CookieError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        guard
            submit(
                make { answer in
                    result.withLock { $0 = answer }
                    done.signal()
                })
        else { throw CookieError("the engine has stopped") }
        done.wait()
        return try result.withLock { $0 ?? .failure(CookieError("the engine stopped")) }.get()
    }

    /// Stops the engine thread: every running connection is dropped without further messages.
    /// Used by tests that make engines of their own.
    public func shutdown() {
        submit(.shutdown)
    }

    // MARK: - Mailbox

    /// Posts `command` to the engine thread and wakes it. Commands already waiting mean a wake-up
    /// is already on its way (the thread takes them all after each wake-up), so only the first
    /// command after a take wakes it: one wake-up, not one per command.
    /// Returns false, dropping the command, once the engine has stopped.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        let (accepted, unloadable) = mailbox.withLock { mailbox in
            guard !mailbox.stopped else { return (false, mailbox.unloadable) }
            let alreadyWoken = !mailbox.commands.isEmpty
            mailbox.commands.append(command)
            if !alreadyWoken, let wake = mailbox.wake { haul_curl_multi_wakeup(wake.multi) }
            return (true, mailbox.unloadable)
        }
        if unloadable { LibcurlLoader.require() }
        return accepted
    }

    /// Takes every posted command (engine thread).
    func takeCommands() -> [Command] {
        mailbox.withLock { mailbox in
            defer { mailbox.commands.removeAll(keepingCapacity: true) }
            return mailbox.commands
        }
    }
}
