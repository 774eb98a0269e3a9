import Foundation
import HaulCore
import HaulNet
import Synchronization

// MARK: - GetRun

/// One `haul get` run with a queue of its own, phase by phase: `start` (the store, the
/// configuration, hooks and cookies, the queue file), `queueDownloads`, `waitForDownloads` and
/// `end` (the store, cookies and session written; the exit status).
///
/// **Threading:** the command's thread; the queue calls back on its own.
struct GetRun {
    let options: QueueOptions
    let reporter: ProgressReporter
    let stored: StoredQueue
    let hooks: HookRunner?
    /// Queue-file lines that were rejected (said already).
    let rejected: Int
    /// Whether the store failed to take a write during the run.
    let storeFailed: StoreFailure
    let scheduler: BandwidthScheduler?

    var queue: DownloadQueue { stored.queue }
    /// Whether the run continues what the store holds (no URL and no queue file given).
    var continuing: Bool { !options.namesDownloads }

    /// Opens the store and sets the run up: a small store (a new one, or a history) opens on
    /// this thread, which has time to spare while the other core loads libcurl; a large one (a
    /// long queue an earlier run left) on the other core while this thread sets up the run,
    /// reads the queue file and starts the engine. A failure of either ends the run once both
    /// are done, and is said here. Returns the run and the queue file's entries.
    static func start(_ options: QueueOptions, reporter: ProgressReporter) throws -> (GetRun, [QueueEntry]) {
        let statePath = options.getStateDirectoryPath
        let open = { @Sendable () throws -> StoredQueue.Opened in try StoredQueue.Opened(stateDirectory: statePath) }
        let opening =
            StoredQueue.Opened.opensQuickly(stateDirectory: statePath) ? StartedWork(here: open) : StartedWork(open)
        let configuration = try GetCommand.runConfiguration(of: options, reporter: reporter)
        let storeFailed = StoreFailure()
        let hooks = try options.startup.hookRunner { reporter.report("haul: \($0)") }
        try options.startup.startCookies { reporter.report($0) }
        let read = Result { try GetCommand.readEntries(of: options, continuing: !options.namesDownloads) }
        // Made as haul started: its thread is loading libcurl, or running.
        let engine = ConnectionEngine.shared
        let opened = opening.outcome()
        // The queue file's failure first, as when the store was opened after it. Consumed: a
        // result kept beside `entries` would hold a million entries to the end.
        let (entries, rejected) = try (consume read).get()
        let stored = options.startup.queue(
            of: try RunStartup.opened(opened) { reporter.report($0) }, configuration: configuration,
            engine: engine,
            onStoreError: { error in
                storeFailed.note()
                reporter.report("\(error)")
            },
            onEvent: { event in
                hooks?.handle(event)
                reporter.handle(event)
            })
        // The run ends the process: the queue is not taken apart first.
        KeptUntilExit.keep(stored)
        let scheduler = options.startup.startSchedule(on: stored.queue) { reporter.report("bandwidth schedule: \($0)") }
        let run = GetRun(
            options: options, reporter: reporter, stored: stored, hooks: hooks, rejected: rejected,
            storeFailed: storeFailed, scheduler: scheduler)
        return (run, entries)
    }

    /// Queues `entries` (or, continuing, what the store left unfinished) and says what is
    /// saved already; returns the downloads and how many of them were saved by an earlier run.
    func queueDownloads(_ entries: consuming [QueueEntry]) throws -> (ids: [GID], alreadySaved: Int) {
        guard continuing else {
            // Consumed: the entries of a long queue file are not kept beside their downloads.
            let continuation = stored.continueOrAdd(entries)
            GetCommand.reportFiles(continuation, quiet: options.basic.quiet, to: reporter)
            return (continuation.ids, continuation.complete)
        }
        let ids = stored.continueUnfinished()
        guard !ids.isEmpty else {
            throw UsageError("nothing to continue in \(stored.store.path): give URLs or a queue file with -i FILE")
        }
        if !options.basic.quiet {
            reporter.report("continuing \(ids.count) unfinished download\(ids.count == 1 ? "" : "s")")
            let restored = Set(ids)
            let startingOver = GetCommand.startingOver(stored.stored.filter { restored.contains($0.id) })
            GetCommand.reportFirst(startingOver.lazy.map(GetCommand.startsOver), of: startingOver.count, to: reporter) {
                "and \($0) more downloads start over"
            }
        }
        return (ids, 0)
    }

    /// Waits until every download of `ids` that runs has ended (Ctrl-C and SIGTERM stop them
    /// and save the queue); paused ones are said and left queued.
    func waitForDownloads(_ ids: [GID], alreadySaved: Int) -> (completed: Int, total: Int) {
        let interruptHandlers = GetCommand.stopOnInterrupt(stored, options: options, reporter: reporter)
        let paused = queue.count(in: [.paused])
        let running = ids.count - paused - alreadySaved
        if paused > 0, !options.basic.quiet {
            reporter.report("\(paused) paused \(paused == 1 ? "entry is" : "entries are") queued but not run")
        }
        if alreadySaved > 0, !options.basic.quiet {
            GetCommand.reportAlreadySaved(ids, count: alreadySaved, in: queue, to: reporter)
        }
        // Once the last downloads are running, the complete ones are written meanwhile.
        let lastWave = 2 * options.connections.maxConcurrentDownloads
        let ended = withExtendedLifetime(interruptHandlers) {
            reporter.waitUntilDone(count: running, nearEnd: (lastWave, stored.settle))
        }
        hooks?.waitForRunning()
        return (ended.completed, ended.total)
    }

    /// Ends the run: finished downloads leave the stored queue (its history keeps them),
    /// cookies and the session are saved, and the exit status is thrown when not 0.
    func end(_ ended: (completed: Int, total: Int)) throws {
        stored.finish()
        let cookiesKept = options.startup.keepCookies { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        if let saveSession = options.basic.saveSession {
            do {
                try queue.saveSession(to: saveSession)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitStatus(1)
            }
        }
        let storeFailed = storeFailed.happened
        if storeFailed {
            reporter.report(
                "haul: the queue's store could not be written; a later run may not know what this one saved")
        }
        if ended.completed < ended.total {
            throw ExitStatus(reporter.lastErrorCode?.rawValue ?? ErrorCode.unknown.rawValue)
        }
        if rejected > 0 || !cookiesKept || storeFailed { throw ExitStatus(1) }
    }
}

// MARK: - StoreFailure

/// Whether a run's store failed to take a write: noted by the queue's thread, read at the end.
///
/// **Threading:** any thread; a lock guards the flag.
final class StoreFailure: Sendable {
    private let failed = Mutex(false)

    func note() { failed.withLock { $0 = true } }

    var happened: Bool { failed.withLock { $0 } }
}
