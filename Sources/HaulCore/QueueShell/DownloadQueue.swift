import Foundation
import HaulNet
import Synchronization

// MARK: - DownloadQueue

/// The download manager's queue: admits downloads up to `maxConcurrentDownloads`, in queue
/// order; retries failures as `RetryPolicy` says; resumes from the partial file with Range and
/// If-Range, starting over whenever the server's answer could splice two versions; names files;
/// checks digests; and reports every change as a `DownloadEvent`.
///
/// The shell around `QueueCore`, which decides all of that with no I/O: a command or a
/// connection's message becomes a `QueueInput`, handled under the lock; the `QueueEffect`s it
/// returns (start a connection, name a file, tell the journal) run afterwards, in order, on
/// `callbackQueue`, outside any lock; the results of those that have one go back in as inputs.
///
/// **Threading:** commands are safe from any thread and never wait on the disk or the store:
/// they hold the lock only while the core decides. Connection messages, effects and events run
/// on the queue's own serial `callbackQueue`, events in the order the changes happened.
public final class DownloadQueue: ConnectionDelegate {
    public typealias Configuration = QueueConfiguration

    /// The core and the effects it asked for that have not run yet, in order.
    struct Locked {
        var core: QueueCore
        var outbox: [QueueEffect] = []
        /// The overall speed limit set last (nil: none).
        var overallLimit: Int64?
    }

    /// What the effects keep between them, touched only on `callbackQueue`: each running
    /// connection, and the answer the core gave a connection's response.
    struct Running {
        var connections: [ConnectionID: DownloadConnection] = [:]
        var answers: [ConnectionID: ResponseDisposition] = [:]
    }

    public let configuration: Configuration
    /// The current directory when the queue was made; relative `dir` options are taken from it.
    private let workingDirectory: String
    public let callbackQueue = DispatchQueue(label: "haul.download-queue")
    let engine: ConnectionEngine
    let timer: any RetryTimer
    private let locked: Mutex<Locked>
    let running = Mutex(Running())
    /// Directories already made, so each is made once, not once a download (`callbackQueue`).
    let createdDirectories = Mutex<Set<String>>([])
    /// Directories asked whether they can hold files with no name, and the answer.
    let unnamedSupport = Mutex<[String: Bool]>([:])
    /// The names whose `NAME.part` is on disk, which files with no name are not given.
    let partFileNames = PartFileNames()
    let journal: (any DownloadJournal)?
    let onEvent: @Sendable (DownloadEvent) -> Void
    /// The torrents' runner, made at the first torrent (`torrents()`).
    private let torrentRunner = Mutex<TorrentRunner?>(nil)

    /// `journal` (if any) keeps every change; `onEvent` runs on `callbackQueue`, after the journal
    /// has filed the event.
    ///
    /// - Parameters:
    ///   - configuration: The run's settings: directory, `-j`, the options under every download's.
    ///   - engine: The engine thread its transfers run on; `.shared` unless a test runs its own.
    ///   - timer: Waits between attempts; a test passes one it fires by hand.
    ///   - journal: The store that files every change, or nil to keep nothing.
    ///   - onEvent: Gets every event, in order, on `callbackQueue`.
    public convenience init(
        configuration: Configuration = Configuration(), engine: ConnectionEngine = .shared,
        timer: any RetryTimer = DispatchRetryTimer(), journal: (any DownloadJournal)? = nil,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) {
        self.init(
            configuration: configuration, engine: engine, timer: timer, clock: SystemQueueClock(), journal: journal,
            onEvent: onEvent)
    }

    init(
        configuration: Configuration, engine: ConnectionEngine, timer: any RetryTimer, clock: any QueueClock,
        journal: (any DownloadJournal)?, onEvent: @escaping @Sendable (DownloadEvent) -> Void
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
        locked = Mutex(Locked(core: QueueCore(configuration: configuration, clock: clock)))
    }

    /// The runner of the queue's torrents, made at the first call.
    func torrents() -> TorrentRunner {
        torrentRunner.withLock { runner in
            if let runner { return runner }
            var settings = configuration.torrentSettings
            settings.downloadRateLimit = Int(clamping: locked.withLock { $0.overallLimit } ?? 0)
            let made = TorrentRunner(settings: settings, journal: journal) { [weak self] input in
                self?.deliver(input)
            }
            runner = made
            return made
        }
    }

    /// Torrent `id`'s `parts` (its files, peers, trackers, pieces): from libtorrent while it
    /// runs; else its files and trackers as last seen or as its .torrent says; nil when it is not a
    /// torrent, or a magnet link whose metadata never came. Waits for libtorrent's network thread
    /// or reads a file: not to be called where a frame or an event loop waits.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - parts: What to ask for.
    /// - Returns: The detail, or nil.
    public func torrentDetail(of id: GID, _ parts: TorrentDetail.Parts = .all) -> TorrentDetail? {
        guard let download = download(id), download.torrentLink != nil else { return nil }
        return torrents().detail(of: download, parts)
    }

    /// Keeps every running torrent's resume data in the journal (waiting up to a few seconds):
    /// before the store is flushed. Nothing when no torrent ran.
    public func saveTorrents() {
        torrentRunner.withLock { $0 }?.saveAll()
    }

    /// Keeps every running torrent's resume data, then ends their session (its threads stopped,
    /// trackers told): at the end of a run, before the process exits. No torrent starts after.
    /// Nothing when no torrent ran.
    public func closeTorrents() {
        torrentRunner.withLock { $0 }?.close()
    }

    // MARK: - Reading

    /// Every download, in queue order.
    public var downloads: [Download] {
        reading { state in state.downloads.values }
    }

    /// How many downloads the queue holds.
    public var count: Int {
        reading { $0.downloads.count }
    }

    /// Every download's id, in queue order.
    public var ids: [GID] {
        reading { $0.downloads.ids }
    }

    /// The ids of the downloads in `states`, in queue order (without copying the downloads, which
    /// for a long queue would cost memory).
    ///
    /// - Parameter states: The states to look for.
    /// - Returns: The gids, in queue order.
    public func ids(in states: Set<Download.State>) -> [GID] {
        reading { state in
            state.downloads.ids { states.contains($0.state) }
        }
    }

    /// How many downloads are in `states` (no copy of them).
    ///
    /// - Parameter states: The states to look for.
    /// - Returns: The number of downloads in one of them.
    public func count(in states: Set<Download.State>) -> Int {
        reading { state in state.downloads.count { states.contains($0.state) } }
    }

    /// The downloads at `positions` of the queue order (clamped): a long queue read in pieces,
    /// each copied under the lock, none of it all at once.
    ///
    /// - Parameter positions: Indices of the queue order; those past the end are passed over.
    /// - Returns: Copies of the downloads there.
    public func downloads(at positions: Range<Int>) -> [Download] {
        reading { state in
            Array(state.downloads.downloads(at: positions))
        }
    }

    /// A copy of download `id` as it is now.
    ///
    /// - Parameter id: The download's gid.
    /// - Returns: The download, or nil when the queue has none of that gid.
    public func download(_ id: GID) -> Download? {
        reading { $0.downloads[id] }
    }

    /// What download `id`'s attempt shows (speed, connections, response), if it has run.
    ///
    /// - Parameter id: The download's gid.
    /// - Returns: Its running attempt's activity, or nil when it has not run in this process.
    public func activity(_ id: GID) -> DownloadActivity? {
        reading { $0.runs[id]?.activity }
    }

    private func reading<Value: Sendable>(_ read: (QueueCore.State) -> Value) -> Value {
        locked.withLock { locked in StateLockMarker.holding { read(locked.core.state) } }
    }

    // MARK: - Commands

    /// Queues `entry` (paused if its options say `pause=true`) and returns its id.
    ///
    /// - Parameter entry: The download to add.
    /// - Returns: Its gid.
    @discardableResult
    public func add(_ entry: QueueEntry) -> GID {
        add([entry])[0]
    }

    /// Queues `entries` in order, with one event, and returns their ids: those they were added
    /// with. A gid an entry names that another download has already (a client may choose one,
    /// or guess the next) is not taken: the download gets a new one (`DownloadTable.append`).
    ///
    /// - Parameter entries: The downloads to add.
    /// - Returns: Their gids, in the entries' order.
    @discardableResult
    public func add(_ entries: [QueueEntry]) -> [GID] {
        var merger = DownloadOptions.Merger(over: configuration.defaults)
        return added(command(.add(entries.map { newDownload(for: $0, merger: &merger) })))
    }

    /// The ids of the downloads the effects of an `.add` added.
    private func added(_ effects: [QueueEffect]) -> [GID] {
        for case .emit(.added(let downloads)) in effects { return downloads.map(\.id) }
        return []
    }

    /// The download `entry` describes, not yet queued: its gid, its directory fixed, paused if
    /// its options say `pause=true`, and its options over the run's (`configuration.defaults`,
    /// through `merger`): a download keeps every option it was started with, across restarts,
    /// so a later `haul get` with no arguments continues it with its certificate, headers and
    /// limits.
    func newDownload(for entry: QueueEntry, merger: inout DownloadOptions.Merger) -> Download {
        let options = merger.merge(entry.options)
        var download = Download(id: entry.gid ?? GID.next(), uris: entry.uris, options: options)
        download.directory = directory(for: entry)
        if entry.options.pause == true { download.state = .paused }
        return download
    }

    /// Queues downloads from an earlier run as they were (an interrupted one is queued again, to
    /// continue from its completed ranges), with one event; returns their ids.
    ///
    /// `startingHere`: the effects (the first downloads' starts among them) run before this
    /// returns, on the calling thread, through `callbackQueue.sync`; not from `callbackQueue`
    /// itself. Handed to `callbackQueue`, the first piece of a queue file began its effects
    /// only as its caller finished matching the rest (later, in a run of 1000
    /// files), however soon it was queued: the queue's worker thread did not run before.
    ///
    /// - Parameters:
    ///   - downloads: The stored downloads, in queue order.
    ///   - startingHere: Whether the first effects run before this returns, on this thread.
    /// - Returns: Their gids (new ones for any that collided with a download already queued).
    @discardableResult
    public func restore(_ downloads: consuming [Download], startingHere: Bool = false) -> [GID] {
        // In place: a restored queue of 100,000 is not copied.
        for index in downloads.indices {
            if downloads[index].state == .active { downloads[index].state = .queued }
        }
        return added(command(.add(downloads), effectsHere: startingHere))
    }

    /// Makes room for `count` more downloads, so a long queue file added in pieces does not
    /// grow the queue's tables piece by piece (each growth holds the old table and the new).
    ///
    /// - Parameter count: How many downloads are about to be added.
    public func reserveCapacity(adding count: Int) {
        locked.withLock { $0.core.state.reserveCapacity(adding: count) }
    }

    /// Where `entry` is saved: its `dir` (relative to the current directory), else the defaults'
    /// `dir`, else the queue's directory. (A list loaded by URL names no `dir`: its parser
    /// refuses one.)
    private func directory(for entry: QueueEntry) -> String {
        guard let dir = entry.options.dir else {
            return configuration.defaults.dir.map { DownloadQueue.absolute($0, in: workingDirectory) }
                ?? configuration.directory
        }
        return DownloadQueue.absolute(dir, in: workingDirectory)
    }

    /// `path` as an absolute path without `.` or `..` components, relative ones taken from `base`.
    private static func absolute(_ path: String, in base: String) -> String {
        ((path.hasPrefix("/") ? path : base + "/" + path) as NSString).standardizingPath
    }

    public func pause(_ id: GID) { command(.pause(id)) }

    public func resume(_ id: GID) { command(.resume(id)) }

    public func cancel(_ id: GID) { command(.cancel(id)) }

    public func retry(_ id: GID) { command(.retry(id)) }

    public func authenticate(_ id: GID, user: String, password: String) {
        command(.authenticate(id, user: user, password: password))
    }

    public func setMaxDownloadLimit(_ id: GID, _ bytesPerSecond: Int64?) {
        command(.setMaxDownloadLimit(id, bytesPerSecond))
    }

    /// Gives download `id` the options `options` over its own (`QueueCore.changeOptions`): an
    /// active one starts its attempt again with them, keeping what it received.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - options: The options to set; those not set keep their values.
    public func changeOptions(_ id: GID, _ options: DownloadOptions) {
        command(.changeOptions(id, options))
    }

    /// New options for download `id` that change without a new attempt (the rows whose
    /// `change` is `.live`: speed limits, seeding, a torrent's `select-file`), over its own; a
    /// running download takes them at once.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - options: The options that change.
    public func changeLiveOptions(_ id: GID, _ options: DownloadOptions) {
        command(.changeLiveOptions(id, options))
    }

    /// Takes `removing` off download `id`'s URIs and puts `adding` at `position` among the rest
    /// (`QueueCore.changeURIs`).
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - removing: URIs to take off (the first occurrence of each).
    ///   - adding: URIs to put in.
    ///   - position: Where among the rest, from 0; nil for the end.
    ///   - source: Who changes them; a less trusted source than the download's takes its credentials
    ///     away.
    public func changeURIs(
        _ id: GID, removing: [String], adding: [String], at position: Int?, by source: OptionSource = .owner
    ) {
        command(.changeURIs(id, removing: removing, adding: adding, at: position, by: source))
    }

    /// Runs at most `count` downloads at once from now on (a lower count stops none: it admits
    /// no more until fewer run).
    ///
    /// - Parameter count: Downloads at once; less than 1 counts as 1.
    public func setMaxConcurrentDownloads(_ count: Int) {
        command(.setMaxConcurrentDownloads(count))
    }

    public func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?) {
        let cap = SpeedLimit(bytesPerSecond).cap
        locked.withLock { $0.overallLimit = cap }
        engine.setMaxOverallReceiveSpeed(cap)
        // Torrents share the cap among themselves, as transfers do among theirs.
        torrentRunner.withLock { $0 }?.setDownloadLimit(Int(clamping: cap ?? 0))
    }

    /// The queue's options as they are now (`QueueOptionTable`): -j, the per-host cap and the
    /// overall limit in force (a bandwidth schedule's, while one runs).
    public var settings: QueueSettings {
        locked.withLock { locked in
            var settings = QueueSettings()
            settings.maxConcurrentDownloads = locked.core.configuration.maxConcurrentDownloads
            settings.maxConnectionsPerHost = locked.core.configuration.maxConnectionsPerHost
            settings.maxOverallDownloadLimit = SpeedLimit(bytesPerSecond: locked.overallLimit ?? 0)
            settings.listenPort = configuration.listenPort
            settings.interface = configuration.interface
            settings.enableDHT = configuration.enableDHT
            // The runner's once there is one (reading makes none), else the configuration's.
            let runner = torrentRunner.withLock { $0 }
            settings.maxOverallUploadLimit =
                runner.map { SpeedLimit(bytesPerSecond: Int64($0.uploadLimit ?? 0)) }
                ?? configuration.maxOverallUploadLimit
            return settings
        }
    }

    /// Changes the queue's option `option` to `text`, checked by its row, at once (one set when
    /// haul starts is refused).
    ///
    /// - Parameters:
    ///   - option: A row of `QueueOptionTable`.
    ///   - text: Its new value as a person or a client wrote it.
    /// - Throws: `OptionError` naming what is wrong with the value, or that it does not change
    ///   while the queue runs.
    public func change(_ option: QueueOptionTable.Option, to text: String) throws(OptionError) {
        guard option.changesLive else {
            throw OptionError("\(option.name) is set when haul starts; it does not change while the queue runs")
        }
        var changed = settings
        try changed.set(option.name, text)
        switch option.name {
        case QueueOptionTable.maxConcurrentDownloads.name:
            setMaxConcurrentDownloads(changed.maxConcurrentDownloads)
        case QueueOptionTable.maxConnectionsPerHost.name:
            command(.setMaxConnectionsPerHost(changed.maxConnectionsPerHost))
        case QueueOptionTable.maxOverallDownloadLimit.name:
            setMaxOverallDownloadLimit(changed.maxOverallDownloadLimit.cap)
        case QueueOptionTable.maxOverallUploadLimit.name:
            torrents().setUploadLimit(Int(clamping: changed.maxOverallUploadLimit.cap ?? 0))
        default:
            break
        }
    }

    /// Where `move` puts a download in the queue, whose order is the order of admission.
    public enum Move: Sendable, Equatable {
        case up, down, top, bottom
        /// To this index of the queue order (clamped).
        case to(Int)
    }

    public func move(_ id: GID, _ move: Move) { command(.move(id, move)) }

    /// Takes a download off the queue (its files stay).
    ///
    /// - Parameter id: The download; an unknown gid changes nothing.
    public func remove(_ id: GID) { remove([id]) }

    public func remove(_ ids: [GID]) { command(.remove(ids)) }

    @discardableResult
    public func remove(_ id: GID, deletingFiles: Bool) -> [String] {
        let download = self.download(id)
        remove([id])
        guard deletingFiles, let download else { return [] }
        if let destination = download.destination { partFileNames.release(destination) }
        return [download.destination, download.partialPath].compactMap { $0 }.filter { unlink($0) == 0 }
    }

    // MARK: - Running the core

    /// A command, from any thread: the core decides under the lock; the effects run on
    /// `callbackQueue`, later, or before this returns on the caller's thread (`effectsHere`,
    /// through `callbackQueue.sync`; not from `callbackQueue` itself).
    @discardableResult
    private func command(_ input: QueueInput, effectsHere: Bool = false) -> [QueueEffect] {
        let effects = handOver(input)
        if effectsHere {
            callbackQueue.sync { runEffects() }
        } else {
            callbackQueue.async { [self] in runEffects() }
        }
        return effects
    }

    /// Hands `input` to the core, under the lock; its effects join the outbox, in order.
    func send(_ input: QueueInput) {
        handOver(input)
    }

    /// `send`, returning the effects `input` had.
    @discardableResult
    private func handOver(_ input: QueueInput) -> [QueueEffect] {
        locked.withLock { locked in
            StateLockMarker.holding {
                let effects = locked.core.handle(input)
                if locked.outbox.isEmpty {
                    locked.outbox = effects
                } else {
                    locked.outbox.append(contentsOf: effects)
                }
                return effects
            }
        }
    }

    /// Runs the outbox's effects, in order, outside the lock, until it is empty (an effect's
    /// result is an input, whose effects run in turn). The connections a batch starts start
    /// first: the engine begins their requests while the batch's events are told (a new
    /// connection's messages come after the batch, on this queue). On `callbackQueue` only.
    func runEffects() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(callbackQueue))
        #endif
        while true {
            let batch = locked.withLock { locked -> [QueueEffect] in
                var batch: [QueueEffect] = []
                swap(&batch, &locked.outbox)
                return batch
            }
            if batch.isEmpty { return }
            for case .start(let plan) in batch { start(plan) }
            for effect in batch { perform(effect) }
        }
    }
}
