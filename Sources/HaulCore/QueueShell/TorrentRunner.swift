import Foundation
import HaulTorrent
import Synchronization

// MARK: - TorrentRunner

/// Runs a queue's torrents in one libtorrent session, made at the first torrent (the engine is
/// loaded then): adds what the core admits (its metainfo read and its names through the gate
/// first), takes out what it stops (its resume data kept first), and turns what the session
/// reports into the core's inputs.
///
/// **Threading:** `start` and `stop` may be called from any thread; their work runs in order on
/// the runner's own serial queue (a metainfo is read and checked there, not on the queue's).
/// The session's events arrive on its event thread and go to the queue through `deliver`.
final class TorrentRunner: Sendable {
    private struct State {
        /// How the session listens and finds peers, and its overall upload limit.
        var settings: TorrentSettings
        var session: TorrentSession?
        /// Why the session could not be made (the engine missing), said to each torrent after.
        var unavailable: TorrentError?
        /// Torrents in the session, with what they were started with.
        var running: [UInt64: TorrentPlan] = [:]
        /// Torrents whose resume data is awaited (by `saveAll`, or `stop` before it removes one).
        var saving: Set<UInt64> = []
        /// Set by `close`: no torrent starts after.
        var closed = false
        /// What is known of each torrent beyond the session: its .torrent's comment and date, and
        /// once it stopped (or its .torrent was read for a client), its files and trackers.
        var known: [UInt64: TorrentDetail] = [:]
    }

    private let journal: (any DownloadJournal)?
    private let deliver: @Sendable (QueueInput) -> Void
    private let state: Mutex<State>
    private let work = DispatchQueue(label: "haul.torrents")
    private let saved = NSCondition()

    /// - Parameters:
    ///   - settings: How the session listens and which discovery it uses.
    ///   - journal: Where resume data is kept between runs.
    ///   - deliver: Hands an input to the queue's core, from any thread.
    init(
        settings: TorrentSettings, journal: (any DownloadJournal)?,
        deliver: @escaping @Sendable (QueueInput) -> Void
    ) {
        state = Mutex(State(settings: settings))
        self.journal = journal
        self.deliver = deliver
    }

    // MARK: Starting and stopping

    /// Adds the torrent `plan` describes; `QueueInput.torrentStarted` answers. Nothing once the
    /// runner is closed (the process is ending).
    func start(_ plan: TorrentPlan) {
        work.async { [self] in
            guard !state.withLock({ $0.closed }) else { return }
            let id = plan.download.id
            do throws(DownloadFailure) {
                deliver(.torrentStarted(id, .success(try add(plan))))
            } catch {
                deliver(.torrentStarted(id, .failure(error)))
            }
        }
    }

    /// Takes torrent `id` out of the session once its resume data is kept (a few milliseconds,
    /// five seconds at most), before the runner's next start: the same torrent added again
    /// (removed and added back by a client) finds it gone.
    func stop(_ id: GID) {
        work.async { [self] in
            let key = id.value
            // What it had and where it announced, for clients asking while it waits.
            let last = detail(of: id, [.files, .trackers])
            let session = state.withLock { state -> TorrentSession? in
                guard state.running.removeValue(forKey: key) != nil else { return nil }
                if let last { state.known[key] = last }
                state.saving.insert(key)
                return state.session
            }
            guard let session else { return }
            session.pause(key)
            session.saveResumeData(key)
            waitForSaves(of: [key], until: Date().addingTimeInterval(5))
            session.remove(key)
        }
    }

    /// Waits until the resume data of every torrent of `keys` is kept (or cannot be), or
    /// `deadline` passes.
    private func waitForSaves(of keys: Set<UInt64>, until deadline: Date) {
        saved.lock()
        defer { saved.unlock() }
        while !state.withLock({ $0.saving.isDisjoint(with: keys) }) {
            guard saved.wait(until: deadline) else { return }
        }
    }

    /// Asks every running torrent for its resume data and waits (up to `seconds`) until each is
    /// handed to the journal: before a flush of the store at quit, so a later run continues
    /// where this one stopped.
    ///
    /// **Threading:** any thread but the session's event thread; blocks.
    func saveAll(waitingUpTo seconds: Double = 5) {
        work.sync {}
        let (session, keys) = state.withLock { state -> (TorrentSession?, Set<UInt64>) in
            let keys = Set(state.running.keys)
            state.saving.formUnion(keys)
            return (state.session, keys)
        }
        guard let session, !keys.isEmpty else { return }
        for key in keys { session.saveResumeData(key) }
        waitForSaves(of: keys, until: Date().addingTimeInterval(seconds))
    }

    /// Keeps every running torrent's resume data (as `saveAll`), then ends the session: its
    /// threads stop before the process exits (an exit's destructors running beside libtorrent's
    /// threads crashed it), trackers told "stopped" within a second. No torrent starts after.
    ///
    /// **Threading:** any thread but the session's event thread; blocks.
    func close() {
        saveAll()
        let session = state.withLock { state -> TorrentSession? in
            state.closed = true
            state.running = [:]
            defer { state.session = nil }
            return state.session
        }
        session?.close()
    }

    // MARK: Asking and changing

    /// Torrent `download`'s `parts`, pad files aside: from the session while it runs; else what
    /// was seen when it stopped, or its .torrent (read once), its files selected as its options
    /// say; nil for a magnet link whose metadata never came.
    ///
    /// **Threading:** any thread but the session's event thread; waits for libtorrent's network
    /// thread, or reads a .torrent.
    func detail(of download: Download, _ parts: TorrentDetail.Parts) -> TorrentDetail? {
        if let live = detail(of: download.id, parts) { return live }
        let key = download.id.value
        var detail = state.withLock { $0.known[key] }
        if detail?.files.isEmpty ?? true, case .metainfoFile(let path)? = download.torrentLink,
            let bytes = try? TorrentRunner.readMetainfo(at: path), let metainfo = try? TorrentMetainfo(bytes: bytes)
        {
            var read = TorrentDetail()
            read.infoHash = metainfo.infoHash
            read.comment = metainfo.comment
            read.creationDate = metainfo.creationDate
            read.files = metainfo.files.filter { !$0.isPad }
            read.trackers = metainfo.trackers.enumerated().flatMap { tier, urls in
                urls.map { TorrentTracker(url: $0, tier: tier) }
            }
            state.withLock { $0.known[key] = read }
            detail = read
        }
        guard var detail, !detail.files.isEmpty else { return nil }
        let whole = download.state == .complete
        for (index, file) in detail.files.enumerated() {
            detail.files[index].priority = download.options.selectFile?.contains(index + 1) ?? true ? 4 : 0
            if whole { detail.files[index].done = detail.files[index].priority > 0 ? file.size : file.done }
        }
        return detail
    }

    /// Running torrent `id`'s `parts`, pad files aside; nil when it is not in the session.
    private func detail(of id: GID, _ parts: TorrentDetail.Parts) -> TorrentDetail? {
        let key = id.value
        let (session, known) = state.withLock { state in
            (state.running[key] == nil ? nil : state.session, state.known[key])
        }
        guard let session else { return nil }
        var detail = TorrentDetail()
        detail.infoHash = known?.infoHash ?? ""
        detail.comment = known?.comment ?? ""
        detail.creationDate = known?.creationDate ?? 0
        if parts.contains(.files) { detail.files = (session.files(of: key) ?? []).filter { !$0.isPad } }
        if parts.contains(.peers) { detail.peers = session.peers(of: key) ?? [] }
        if parts.contains(.trackers) { detail.trackers = session.trackers(of: key) ?? [] }
        if parts.contains(.pieces) { detail.pieces = session.pieces(of: key)?.bits ?? [] }
        return detail
    }

    /// Gives running torrent `id` the options it runs with now (`select-file`, its limits) without
    /// stopping it.
    func retune(_ id: GID, _ options: EffectiveOptions) {
        work.async { [self] in
            let key = id.value
            let session = state.withLock { state -> TorrentSession? in
                guard var plan = state.running[key] else { return nil }
                plan.options = options
                state.running[key] = plan
                return state.session
            }
            guard let session else { return }
            session.setLimits(
                key, download: Int(clamping: options.maxDownloadLimit?.cap ?? 0),
                upload: Int(clamping: options.maxUploadLimit?.cap ?? 0), maxConnections: options.btMaxPeers ?? 55)
            guard let files = session.files(of: key) else { return }
            let priorities = TorrentRunner.priorities(of: files, options.selectFile)
            session.prioritize(key, files: priorities.isEmpty ? files.map { $0.isPad ? 0 : 4 } : priorities)
        }
    }

    /// Bytes a second all torrents may upload together (nil: no cap).
    var uploadLimit: Int? {
        state.withLock { $0.settings.uploadRateLimit > 0 ? $0.settings.uploadRateLimit : nil }
    }

    /// Caps all torrents' upload together, at once (0: no cap).
    func setUploadLimit(_ bytesPerSecond: Int) {
        changeSettings { $0.uploadRateLimit = bytesPerSecond }
    }

    /// Caps all torrents' download together, at once (0: no cap): the queue's overall limit.
    func setDownloadLimit(_ bytesPerSecond: Int) {
        changeSettings { $0.downloadRateLimit = bytesPerSecond }
    }

    /// Changes the session's settings, and the running session's at once.
    private func changeSettings(_ change: (inout TorrentSettings) -> Void) {
        let (session, settings) = state.withLock { state in
            change(&state.settings)
            return (state.session, state.settings)
        }
        session?.apply(settings)
    }

    // MARK: Adding

    /// Adds `plan`'s torrent to the session; its naming when its files are known.
    private func add(_ plan: TorrentPlan) throws(DownloadFailure) -> TorrentNaming? {
        let key = plan.download.id.value
        var addition: TorrentAddition
        var naming: TorrentNaming?
        var described = TorrentDetail()
        switch plan.link {
        case .metainfoFile(let path):
            let bytes = try TorrentRunner.readMetainfo(at: path)
            let metainfo: TorrentMetainfo
            do {
                metainfo = try TorrentMetainfo(bytes: bytes)
            } catch {
                throw DownloadFailure("\(path): \(error)", code: .torrentParse)
            }
            let names = try TorrentRunner.gate(metainfo.files, in: plan.directory)
            described.infoHash = metainfo.infoHash
            described.comment = metainfo.comment
            described.creationDate = metainfo.creationDate
            addition = TorrentAddition(key: key, source: .metainfo(bytes), savePath: plan.directory)
            addition.renamedFiles = names.renamed
            addition.filePriorities = TorrentRunner.priorities(of: metainfo.files, plan.options.selectFile)
            naming = TorrentRunner.naming(names, files: metainfo.files, plan: plan)
        case .magnet(let link):
            addition = TorrentAddition(key: key, source: .magnet(link), savePath: plan.directory)
            // No piece is written before the metadata's names pass the gate (`named`).
            addition.hold = true
        }
        // The session is made only for a torrent that passed: a refused one starts no threads.
        let session = try session()
        addition.resumeData = journal?.torrentResume(of: plan.download.id)
        addition.trackers = (plan.options.btTracker ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        // The download's other URIs are web seeds (aria2's addTorrent `uris`, a queue file's line).
        addition.webSeeds = plan.download.uris.dropFirst().filter { QueueEntry.webSeedProblem($0) == nil }
        addition.maxConnections = plan.options.btMaxPeers ?? 55
        addition.downloadLimit = Int(clamping: plan.options.maxDownloadLimit?.cap ?? 0)
        addition.uploadLimit = Int(clamping: plan.options.maxUploadLimit?.cap ?? 0)
        addition.seedUnverified = plan.options.btSeedUnverified == true
        do {
            try session.add(addition)
        } catch {
            let isMagnet = if case .magnet = plan.link { true } else { false }
            throw DownloadFailure("\(error)", code: isMagnet ? .magnetParse : .torrentParse)
        }
        state.withLock { state in
            state.running[key] = plan
            state.known[key] = described
        }
        // A magnet link whose metadata an earlier run kept (in its resume data) has its files now.
        if naming == nil, session.files(of: key) != nil { work.async { [self] in name(key) } }
        return naming
    }

    /// The session, made at the first call; throws why it cannot be.
    private func session() throws(DownloadFailure) -> TorrentSession {
        let made = state.withLock { state -> Result<TorrentSession, TorrentError> in
            if let session = state.session { return .success(session) }
            if let unavailable = state.unavailable { return .failure(unavailable) }
            do throws(TorrentError) {
                let session = try TorrentSession(settings: state.settings) { [weak self] in self?.handle($0) }
                state.session = session
                return .success(session)
            } catch {
                state.unavailable = error
                return .failure(error)
            }
        }
        switch made {
        case .success(let session): return session
        case .failure(let error): throw DownloadFailure(error.description, code: .unknown)
        }
    }

    /// A magnet link's metadata came (or was in its resume data): its files' names pass the
    /// gate, the selected files are wanted, and it may write; or it fails.
    private func name(_ key: UInt64) {
        let (session, running) = state.withLock { ($0.session, $0.running[key]) }
        guard let session, let plan = running, let files = session.files(of: key) else { return }
        let id = plan.download.id
        let names: TorrentNames
        do {
            names = try TorrentRunner.gate(files, in: plan.directory)
        } catch {
            return deliver(.torrentFailed(id, error))
        }
        for (index, path) in names.renamed { session.rename(key, file: index, to: path) }
        let priorities = TorrentRunner.priorities(of: files, plan.options.selectFile)
        if !priorities.isEmpty { session.prioritize(key, files: priorities) }
        session.release(key)
        deliver(.torrentNamed(id, TorrentRunner.naming(names, files: files, plan: plan)))
    }

    // MARK: Events

    /// What the session reports, as the core's inputs (on the session's event thread).
    private func handle(_ event: TorrentEvent) {
        switch event {
        case .status(let key, let status):
            guard let id = GID(key), let session = runningSession(key) else { return }
            deliver(.torrentReported(id, status))
            session.saveResumeData(key, onlyIfChanged: true)
        case .resumeData(let key, let data):
            guard let id = GID(key) else { return }
            journal?.recordTorrentResume(data, of: id)
            markSaved(key)
        case .failed(let key, let message, let disk):
            markSaved(key)
            // A stopping torrent's failure (its resume data that could not be made) is no one's.
            guard let id = GID(key), runningSession(key) != nil else { return }
            deliver(.torrentFailed(id, DownloadFailure(message, code: disk ? .fileIO : .unknown)))
        case .metadata(let key):
            work.async { [self] in name(key) }
        case .finished(let key):
            // Its status says so now, not at the next interval.
            runningSession(key)?.postStatus()
        case .hashFailed, .peerBanned, .trackerFailed, .listening, .listenFailed, .removed:
            break
        }
    }

    /// The session, while torrent `key` runs in it.
    private func runningSession(_ key: UInt64) -> TorrentSession? {
        state.withLock { $0.running[key] == nil ? nil : $0.session }
    }

    /// Torrent `key`'s resume data is kept (or cannot be made): `saveAll` waits for one fewer.
    private func markSaved(_ key: UInt64) {
        saved.lock()
        state.withLock { _ = $0.saving.remove(key) }
        saved.broadcast()
        saved.unlock()
    }
}
