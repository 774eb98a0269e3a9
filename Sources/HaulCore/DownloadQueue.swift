import Foundation
import HaulNet
import Synchronization

// MARK: - DownloadQueue

/// The download manager's queue: admits downloads up to `maxConcurrentDownloads`, in queue
/// order; retries failures as `RetryPolicy` says; resumes from the partial file with Range and
/// If-Range, starting over whenever the server's answer could splice two versions; names files;
/// checks digests; and reports every change as a `DownloadEvent`.
///
/// **Threading:** commands are safe from any thread. Connection messages and events run on the
/// queue's own serial `callbackQueue`, events in the order the changes happened.
///
/// **Words** used across the queue's files, each meaning one thing:
/// - *attempt*: one try at a download, from the request its `DownloadConnection` sends to the
///   attempt's end (complete, failed, or started over); `Download.attempts` counts them, and a
///   retry is a new attempt. A split attempt runs several connections.
/// - *slot*: one of the `maxConcurrentDownloads` places; an active download holds one, and its
///   host's count (`maxConnectionsPerHost`) one more.
/// - *slot holder*: the connection filed for the download in `State.connections`: its first
///   connection, or, once that one has ended, another running connection of its split.
/// - *segment*: the byte range of a split download one connection fetches into the shared
///   partial file.
/// - *helper connection*: a connection of a split download other than its first; it asks for a
///   closed range (`Range: bytes=a-b`) and takes its own TCP connection.
/// - *gap*, *steal*, *tail race*, *laggard*: how a split's connections stay busy to the end
///   (see `DownloadQueue+SplitRebalancing.swift`).
///
/// The files: `+Admission` (what runs, each attempt's request), `+ConnectionMessages` (a
/// connection's response, progress, end and failure; retries), `+Verification` (digest and final
/// name), `+SplitPlan` (a split's state), `+SplitConnections` (starting a split and judging its
/// helpers' answers), `+SplitRebalancing` (new work for finished connections, laggards),
/// `+Request` (options into a request), `+State` (keeping the state's tables in step).
public final class DownloadQueue: ConnectionDelegate {
    public struct Configuration: Sendable {
        public var maxConcurrentDownloads = 5
        /// Active downloads from one host (scheme, host and port) at the most; 0 for no cap.
        /// A download whose host is full waits while later ones from other hosts start.
        public var maxConnectionsPerHost = 0
        /// Options every download starts from (the command line's); its own options win.
        public var defaults = DownloadOptions()
        /// Where files go when neither the download nor `defaults` names a `dir`.
        public var directory = "."
        public var tls = TLSOptions()
        /// Logins for downloads that name no `http-user`, by host.
        public var netrc: Netrc?
        /// When a connection of a split download counts as a laggard, to be replaced.
        public var patience = SegmentPlanner.Patience()
        /// Keep every response header a download gets, not only those a detail view shows
        /// (`--verbose`).
        public var keepsEveryHeader = false
        public init() {}
    }

    struct State {
        var order: [String] = []
        /// Each download's index in `order`.
        var position: [String: Int] = [:]
        /// No download before this index of `order` can be admitted now; it moves back when one
        /// becomes admittable again, so admission does not rescan a long queue.
        var scanFrom = 0
        var downloads = DownloadTable()
        /// The connection of every active download (so its count is the active count).
        var connections: [String: DownloadConnection] = [:]
        /// Active downloads per host (`DownloadQueue.hostKey`).
        var hostConnections: [String: Int] = [:]
        /// Downloads waiting for their retry timer.
        var waiting: Set<String> = []
        /// A failure found after the body arrived (digest, rename), reported at the ending.
        var lateFailure: [String: DownloadFailure] = [:]
        /// Downloads whose file got its final name in this attempt: only these may complete.
        var saved: Set<String> = []
        /// Attempts whose file is being hashed, and whether their load has already ended.
        var verifying: [ObjectIdentifier: Bool] = [:]
        /// Split downloads: their plan, their extra connections, and every connection's segment.
        var splits: [String: Split] = [:]
        /// Split downloads with a laggard check scheduled.
        var watchedSplits: Set<String> = []
        /// Downloads whose server disagreed between connections: one connection from now on.
        var noSplit: Set<String> = []
        /// The last progress sample of each active attempt, for its speed.
        var speedSamples: [String: SpeedSample] = [:]
        /// Whether the once-a-second check of idle speeds (`settleSpeeds`) is scheduled.
        var settlingSpeeds = false
    }

    /// The queue's state, under its lock: every command and connection message goes through
    /// here. In debug builds the thread is marked while it holds the lock (`StateLockMarker`).
    var state: LockedState { LockedState(queue: self) }

    /// `state.withLock { … }`, marking the thread as it runs.
    struct LockedState {
        let queue: DownloadQueue

        func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
            queue.stateLock.withLock { state in StateLockMarker.holding { body(&state) } }
        }
    }

    public let configuration: Configuration
    /// The current directory when the queue was made; relative `dir` options are taken from it.
    private let workingDirectory: String
    public let callbackQueue = DispatchQueue(label: "haul.download-queue")
    let engine: ConnectionEngine
    let timer: any RetryTimer
    private let stateLock = Mutex(State())
    /// Directories already made, so each is made once, not once a download. Used only while
    /// naming files, on `callbackQueue`, outside `state`'s lock.
    let createdDirectories = Mutex<Set<String>>([])
    let journal: (any DownloadJournal)?
    private let onEvent: @Sendable (DownloadEvent) -> Void

    /// `journal` (if any) keeps every change; `onEvent` runs on `callbackQueue`, after the journal
    /// has filed the event.
    public init(
        configuration: Configuration = Configuration(), engine: ConnectionEngine = .shared,
        timer: any RetryTimer = DispatchRetryTimer(), journal: (any DownloadJournal)? = nil,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) {
        var configuration = configuration
        // Resolved once: a relative directory would cost a getcwd for every download.
        workingDirectory = FileManager.default.currentDirectoryPath
        configuration.directory = DownloadQueue.absolute(configuration.directory, in: workingDirectory)
        self.configuration = configuration
        self.engine = engine
        self.timer = timer
        self.journal = journal
        self.onEvent = onEvent
    }

    // MARK: - Reading

    /// Every download, in queue order.
    public var downloads: [Download] {
        state.withLock { state in state.order.compactMap { state.downloads[$0] } }
    }

    /// Every download's id, in queue order.
    public var ids: [String] {
        state.withLock { $0.order }
    }

    /// The ids of the downloads in `states`, in queue order (without copying the downloads, which
    /// for a long queue would cost memory).
    public func ids(in states: Set<Download.State>) -> [String] {
        state.withLock { state in state.order.filter { state.downloads[$0].map { states.contains($0.state) } ?? false }
        }
    }

    public func download(_ id: String) -> Download? {
        state.withLock { $0.downloads[id] }
    }

    // MARK: - Commands

    /// Queues `entry` (paused if its options say `pause=true`) and returns its id.
    @discardableResult
    public func add(_ entry: QueueEntry) -> String {
        add([entry])[0]
    }

    /// Queues `entries` in order, with one event, and returns their ids.
    @discardableResult
    public func add(_ entries: [QueueEntry]) -> [String] {
        insert(entries.map(newDownload))
    }

    /// The download `entry` describes, not yet queued: its gid, its directory fixed, paused if
    /// its options say `pause=true`.
    public func newDownload(for entry: QueueEntry) -> Download {
        var download = Download(id: entry.options.gid ?? Download.makeID(), uris: entry.uris, options: entry.options)
        download.directory = directory(for: entry)
        if entry.options.pause == true { download.state = .paused }
        return download
    }

    /// Queues downloads from an earlier run as they were (an interrupted one is queued again, to
    /// continue from its completed ranges), with one event; returns their ids.
    @discardableResult
    public func restore(_ downloads: consuming [Download]) -> [String] {
        // In place: a restored queue of 100,000 is not copied.
        for index in downloads.indices {
            if downloads[index].state == .active { downloads[index].state = .queued }
            downloads[index].speed = 0
        }
        return insert(downloads)
    }

    private func insert(_ batch: consuming [Download]) -> [String] {
        var downloads = batch
        startConnections(
            state.withLock { state in
                state.downloads.append(&downloads)
                state.position.reserveCapacity(state.position.count + downloads.count)
                state.order.reserveCapacity(state.order.count + downloads.count)
                for download in downloads {
                    state.position[download.id] = state.order.count
                    state.order.append(download.id)
                }
                emit(.added(downloads))
                return admit(&state)
            })
        return downloads.map(\.id)
    }

    /// Where `entry` is saved: its `dir` (relative to the current directory), else the defaults'
    /// `dir`, else the queue's directory. An entry from a list loaded by URL stays inside the
    /// directory the user chose: its `dir` is taken from there and may not leave it.
    private func directory(for entry: QueueEntry) -> String {
        let chosen =
            configuration.defaults.dir.map { DownloadQueue.absolute($0, in: workingDirectory) }
            ?? configuration.directory
        guard let dir = entry.options.dir else { return chosen }
        guard entry.origin == .remote else { return DownloadQueue.absolute(dir, in: workingDirectory) }
        let inside = DownloadQueue.absolute(dir, in: chosen)
        return inside.hasPrefix(chosen.hasSuffix("/") ? chosen : chosen + "/") ? inside : chosen
    }

    /// `path` as an absolute path without `.` or `..` components, relative ones taken from `base`.
    private static func absolute(_ path: String, in base: String) -> String {
        ((path.hasPrefix("/") ? path : base + "/" + path) as NSString).standardizingPath
    }

    /// Stops a queued or active download, keeping what it received.
    public func pause(_ id: String) {
        update(id, when: [.queued, .active]) { $0.state = .paused }
    }

    /// Queues a paused download again; it continues from where it stopped.
    public func resume(_ id: String) {
        update(id, when: [.paused]) { $0.state = .queued }
    }

    /// Stops a download for good, keeping its partial file so `retry` can continue it.
    public func cancel(_ id: String) {
        update(id, when: [.queued, .active, .paused]) { $0.state = .cancelled }
    }

    /// Queues a failed or cancelled download again, with a fresh count of attempts.
    public func retry(_ id: String) {
        update(id, when: [.failed, .cancelled]) { download in
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    /// Gives a download the user name and password to answer its server's challenge with (its
    /// `http-user` and `http-passwd`), and queues it again, with a fresh count of attempts, if
    /// it had failed or was cancelled.
    public func authenticate(_ id: String, user: String, password: String) {
        update(id, when: [.queued, .active, .paused, .failed, .cancelled]) { download in
            download.options.httpUser = user
            download.options.httpPasswd = password
            guard download.state == .failed || download.state == .cancelled else { return }
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    /// Changes one download's speed cap (bytes a second; nil for none), at once if it is running.
    public func setMaxDownloadLimit(_ id: String, _ bytesPerSecond: Int64?) {
        state.withLock { state in
            guard var download = state.downloads[id] else { return }
            download.options.maxDownloadLimit = bytesPerSecond
            state.downloads[id] = download
            emit(.changed(download))
            shareSpeedLimit(state, id, lifting: true)
        }
    }

    /// Caps all downloads together (bytes a second; nil for none), shared by the running
    /// transfers, at once.
    public func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?) {
        engine.setMaxOverallReceiveSpeed(bytesPerSecond.flatMap { $0 > 0 ? $0 : nil })
    }

    /// Where `move` puts a download in the queue, whose order is the order of admission.
    public enum Move: Sendable {
        case up, down, top, bottom
    }

    /// Moves a download in the queue order; a download moved ahead of others is admitted first.
    public func move(_ id: String, _ move: Move) {
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                guard let from = state.position[id] else { return [] }
                let to =
                    switch move {
                    case .up: max(from - 1, 0)
                    case .down: min(from + 1, state.order.count - 1)
                    case .top: 0
                    case .bottom: state.order.count - 1
                    }
                guard to != from else { return [] }
                state.order.remove(at: from)
                state.order.insert(id, at: to)
                for index in min(from, to)...max(from, to) { state.position[state.order[index]] = index }
                state.scanFrom = min(state.scanFrom, from, to)
                emit(.moved(id: id, to: to))
                return admit(&state)
            })
    }

    /// Takes a download off the queue (its files stay).
    public func remove(_ id: String) {
        remove([id])
    }

    /// Takes download `id` off the queue and deletes its file and partial file, after the
    /// lock is released; returns the paths it deleted. Runs file-system calls: call it off any
    /// thread that must not wait on the disk (the UI's loop).
    @discardableResult
    public func remove(_ id: String, deletingFiles: Bool) -> [String] {
        let download = self.download(id)
        remove([id])
        guard deletingFiles, let download else { return [] }
        return [download.destination, download.partialPath].compactMap { $0 }.filter { unlink($0) == 0 }
    }

    /// Takes downloads off the queue (their files stay), in one pass over the queue order.
    public func remove(_ ids: [String]) {
        let stopped = state.withLock { state -> [DownloadConnection] in
            let gone = ids.filter { state.downloads.removeValue(forKey: $0) != nil }
            guard !gone.isEmpty else { return [] }
            let goneSet = Set(gone)
            let first = gone.compactMap { state.position[$0] }.min() ?? 0
            state.order.removeAll { goneSet.contains($0) }
            for id in gone { state.position.removeValue(forKey: id) }
            for index in first..<state.order.count { state.position[state.order[index]] = index }
            state.scanFrom = min(state.scanFrom, first)
            return gone.compactMap { id in
                state.waiting.remove(id)
                emit(.removed(id: id))
                return state.endAttempt(id)
            }
        }
        for connection in stopped { connection.cancel() }
        startConnections(state.withLock { admit(&$0) })
    }

    /// Applies `change` when the download's state is one of `states`; an active download's
    /// connection is stopped first when the change takes it out of `active`.
    private func update(_ id: String, when states: Set<Download.State>, _ change: (inout Download) -> Void) {
        let (stopped, toStart) = state.withLock { state -> (DownloadConnection?, [DownloadConnection]) in
            guard var download = state.downloads[id], states.contains(download.state) else { return (nil, []) }
            change(&download)
            var stopped: DownloadConnection?
            if download.state != .active { stopped = state.endAttempt(id) }
            download.speed = 0
            state.waiting.remove(id)
            state.downloads[id] = download
            if download.state == .queued { state.markAdmittable(id) }
            emit(.changed(download))
            return (stopped, admit(&state))
        }
        stopped?.cancel()
        startConnections(toStart)
    }

    /// Schedules `settleSpeeds` in a second, unless it is scheduled already.
    func scheduleSpeedSettling(_ state: inout State) {
        guard !state.settlingSpeeds else { return }
        state.settlingSpeeds = true
        callbackQueue.asyncAfter(deadline: .now() + SpeedSample.idleAfter) { [weak self] in self?.settleSpeeds() }
    }

    /// Once a second while downloads are active: one that received nothing for a second shows
    /// a speed of 0 (no progress message would ever say so).
    private func settleSpeeds() {
        state.withLock { state in
            state.settlingSpeeds = false
            let now = uptime()
            for id in state.speedSamples.keys {
                guard var download = state.downloads[id], download.state == .active else { continue }
                let before = download.speed
                state.speedSamples[id]?.settle(&download.speed, bytes: download.bytesDone, at: now)
                guard download.speed != before else { continue }
                state.downloads[id] = download
                emit(.changed(download))
            }
            if !state.speedSamples.isEmpty { scheduleSpeedSettling(&state) }
        }
    }

    /// Seconds since boot, for speeds and laggards.
    func uptime() -> Double {
        ProcessInfo.processInfo.systemUptime
    }

    // MARK: - Events

    /// Posts `event` to `callbackQueue`; called under the lock, so events keep their order.
    func emit(_ event: DownloadEvent) {
        let (journal, onEvent) = (journal, onEvent)
        callbackQueue.async {
            journal?.record(event)
            onEvent(event)
        }
    }
}
