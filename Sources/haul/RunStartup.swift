import Foundation
import HaulCore
import HaulNet
import HaulText

// MARK: - RunStartup

/// The start of a run, apart from its options: the steps that touch the disk, the network or the
/// engine (opening the store, turning cookies on, reading the queue file and Metalinks, starting
/// the hooks and the bandwidth schedule), each taken by `haul`, `haul get` and `haul daemon` in
/// their own order. Its options are read, never changed.
struct RunStartup {
    let options: QueueOptions

    /// Opens the queue's store in `stateDirectory` (taking its lock) with `configuration`, the
    /// global limit set, as `haul` and `haul get` both start: values the store could not read
    /// back go to `report`; a store that cannot be opened ends the run with exit status 1.
    func openStore(
        at stateDirectory: String, configuration: DownloadQueue.Configuration, maxDownloadResults: Int? = nil,
        report: (String) -> Void, onStoreError: @escaping @Sendable (StoreError) -> Void,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) throws -> StoredQueue {
        let opening = Result { try StoredQueue.Opened(stateDirectory: stateDirectory) }
        let opened = try RunStartup.opened(opening, report: report)
        return queue(
            of: opened, configuration: configuration, maxDownloadResults: maxDownloadResults,
            onStoreError: onStoreError, onEvent: onEvent)
    }

    /// The queue of a store opened already, with `configuration` and the global limit set.
    func queue(
        of opened: StoredQueue.Opened, configuration: DownloadQueue.Configuration, engine: ConnectionEngine = .shared,
        maxDownloadResults: Int? = nil, onStoreError: @escaping @Sendable (StoreError) -> Void,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) -> StoredQueue {
        let stored = StoredQueue(
            opened: opened, configuration: configuration, engine: engine,
            checkpointInterval: options.basic.checkpointInterval, maxDownloadResults: maxDownloadResults,
            onStoreError: onStoreError, onEvent: onEvent)
        stored.queue.setMaxOverallDownloadLimit(options.overallLimit())
        return stored
    }

    /// The store an opening opened (on any thread), the values it could not read back sent to
    /// `report`; a store it could not open is said on stderr and ends the run with exit status 1.
    static func opened(
        _ outcome: Result<StoredQueue.Opened, any Error>, report: (String) -> Void
    ) throws -> StoredQueue.Opened {
        let opened: StoredQueue.Opened
        do {
            opened = try outcome.get()
        } catch {
            FileHandle.standardError.write(Data("haul: \(error)\n".utf8))
            throw ExitStatus(1)
        }
        for problem in opened.problems { report(problem) }
        return opened
    }

    /// The hooks' runner, reporting failures through `report`; nil when no hook is set.
    func hookRunner(report: @escaping @Sendable (String) -> Void) throws -> HookRunner? {
        guard options.hooks.givesAny else { return nil }
        return HookRunner(hooks: try options.hooks.hooks(directory: options.basic.dir), report: report)
    }

    /// With `--bandwidth-schedule`, the scheduler that keeps `queue`'s overall limit to it,
    /// started; `onStatus` hears each change.
    func startSchedule(
        on queue: DownloadQueue, onStatus: @escaping @Sendable (BandwidthScheduler.Status) -> Void
    ) -> BandwidthScheduler? {
        guard let schedule = options.connections.queue.bandwidthSchedule else { return nil }
        let scheduler = BandwidthScheduler(
            schedule, fallback: options.overallLimit(), apply: { queue.setMaxOverallDownloadLimit($0) },
            onStatus: onStatus)
        scheduler.start()
        return scheduler
    }

    // MARK: - Cookies

    /// Turns cookies on for the run when --load-cookies or --save-cookies asks (all downloads
    /// share them); `report` hears how many were loaded (unless --quiet) or that none were.
    func startCookies(report: (String) -> Void) throws {
        guard options.http.loadCookies != nil || options.http.saveCookies != nil else { return }
        do {
            let count = try ConnectionEngine.shared.useCookies(loadingFrom: options.http.loadCookies.map { [$0] } ?? [])
            if let file = options.http.loadCookies {
                if count == 0 {
                    report("warning: \(file) holds no cookie (Netscape format: 7 tab-separated fields a line)")
                } else if !options.basic.quiet {
                    report("\(file): \(count) cookie\(count == 1 ? "" : "s") loaded")
                }
            }
        } catch {
            throw UsageError("--load-cookies: \(error)")
        }
    }

    /// Writes the run's cookies to the --save-cookies file, if one was named; a failure goes to
    /// `report` and is returned as false.
    func keepCookies(report: (String) -> Void) -> Bool {
        guard let file = options.http.saveCookies else { return true }
        do {
            try ConnectionEngine.shared.saveCookies(to: file)
            return true
        } catch {
            report("haul: --save-cookies: \(error)")
            return false
        }
    }

    /// The downloads the URLs, the queue file, the Metalinks and the .torrent files ask for; a queue file's or a
    /// Metalink's problems and summary go to `report`. Returns the entries and how many lines
    /// were rejected.
    func entries(report: (String) -> Void) throws -> (entries: [QueueEntry], rejected: Int) {
        let named = options.urls.map { QueueOptions.localTorrent($0) ?? $0 } + options.metalink.files
        var entries = (named + (try options.torrents.paths())).map { QueueEntry(uris: [$0]) }
        var rejected = 0
        if let inputFile = options.basic.inputFile {
            let result: InputFile.ReadResult
            let remote = RemoteQueueFile.url(in: inputFile)
            let limit = options.queueFileLimit()
            do {
                if let remote {
                    result = try RemoteQueueFile.standard(limit: limit, tls: options.tlsOptions(), warn: report).read(
                        remote)
                } else {
                    result = try InputFile.read(contentsOf: inputFile, limit: limit)
                }
            } catch {
                throw UsageError(error.description)
            }
            for problem in result.problems { report(problem.description) }
            if !result.problems.isEmpty || !options.basic.quiet {
                report("\(remote?.redactedString ?? (inputFile == "-" ? "<stdin>" : inputFile)): \(result.summary)")
            }
            rejected = result.rejectedLines
            entries += result.entries
        }
        if entries.count == 1 {
            entries[0].uris.append(contentsOf: options.connections.mirrors)
            if let out = options.basic.out, let (directory, name) = QueueOptions.place(of: out) {
                try entries[0].options.set("out", name)
                // A relative path is taken from --dir, as aria2 takes -o.
                if let directory {
                    let base =
                        directory.hasPrefix("/")
                        ? directory : (options.basic.dir as NSString).appendingPathComponent(directory)
                    try entries[0].options.set("dir", base)
                }
            }
            if let checksum = options.files.checksum { entries[0].options.checksum = checksum }
        }
        guard MetalinkLoader.namesMetalink(entries) else { return (entries, rejected) }
        let remote = RemoteQueueFile.standard(
            limit: Int64(Metalink.sizeLimit) + 1, tls: options.tlsOptions(), warn: report)
        let loader = MetalinkLoader(locations: options.metalink.locations) { url throws(InputFile.FileError) in
            try remote.load(url).get()
        }
        do {
            entries = try loader.expand(entries, report: report)
        } catch {
            throw UsageError(error.description)
        }
        return (entries, rejected)
    }
}

extension QueueOptions {
    /// The steps that start a run with these options.
    var startup: RunStartup { RunStartup(options: self) }
}
