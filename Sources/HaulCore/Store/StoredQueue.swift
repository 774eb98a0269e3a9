import Foundation
import HaulNet
import Synchronization

// MARK: - StoredQueue

/// A `DownloadQueue` kept in the store of a state directory: every change is checkpointed, and
/// the downloads of an earlier run, even one ended by `kill -9`, can be continued from their
/// last checkpoint.
///
/// **Threading:** as `DownloadQueue`; `onEvent` runs on the queue's `callbackQueue`.
public final class StoredQueue: Sendable {
    public let queue: DownloadQueue
    public let store: DownloadStore
    /// The downloads the store held when it was opened, in their order, not yet in `queue`.
    public let stored: [Download]
    /// Values in the store that could not be read back.
    public let problems: [String]
    private let directory: StateDirectory
    private let checkpointer: Checkpointer

    /// Opens the store in `stateDirectory` (taking its lock) and makes the queue.
    /// `onStoreError` runs when a checkpoint cannot be written (the changes are kept for the next).
    /// `maxDownloadResults`: the queue keeps at most this many ended downloads, the oldest
    /// leaving it (`--max-download-result`); nil keeps all.
    public init(
        stateDirectory: String, configuration: DownloadQueue.Configuration, engine: ConnectionEngine = .shared,
        checkpointInterval: Double = 1, maxDownloadResults: Int? = nil,
        onStoreError: @escaping @Sendable (StoreError) -> Void,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) throws(StoreError) {
        directory = try StateDirectory(path: stateDirectory)
        store = try DownloadStore(path: directory.databasePath)
        let contents = try store.load()
        stored = contents.downloads.map(StoredQueue.reconciled)
        problems = contents.problems
        let checkpointer = Checkpointer(store: store, interval: checkpointInterval, onError: onStoreError)
        self.checkpointer = checkpointer
        let results = maxDownloadResults.map(ResultLimit.init)
        let owner = QueueReference()
        queue = DownloadQueue(configuration: configuration, engine: engine, journal: checkpointer) { event in
            onEvent(event)
            if let dropped = results?.note(event), !dropped.isEmpty { owner.queue?.remove(dropped) }
        }
        owner.queue = queue
        checkpointer.setOrderSource { [weak queue] in queue?.ids ?? [] }
    }

    /// Writes every change so far to the store and returns when it is there. Not to be called on
    /// the queue's `callbackQueue`, whose pending events it waits for.
    public func flush() {
        queue.callbackQueue.sync {}
        checkpointer.flush()
    }

    // MARK: - Continuing

    /// What `continueOrAdd` did with its entries.
    public struct Continuation: Sendable {
        /// The downloads' ids, in entry order.
        public var ids: [String] = []
        /// How many entries continued a download of an earlier run.
        public var continued = 0
        /// How many are complete already (an earlier run saved them), counted before any
        /// download starts, so none that completes at once is among them.
        public var complete = 0
        /// Files other tools left unfinished that entries with `continue=true` continue.
        public var unfinished: [UnfinishedFile] = []
        /// Files of entries without `continue=true` that `-c` would continue; those downloads
        /// are saved beside them.
        public var continuable: [String] = []
        /// Unfinished files that could not be continued, each with why (those downloads start
        /// from the beginning, beside them).
        public var problems: [String] = []
    }

    /// Queues `entries`, each continuing the stored download it names when there is one (same
    /// URIs, options and directory) and added anew otherwise: complete when an earlier run saved
    /// its file, continuing a file another tool left when it says `continue=true`. Continued
    /// downloads that failed, were cancelled or paused are queued again with fresh attempts;
    /// completed ones stay complete.
    public func continueOrAdd(_ entries: consuming [QueueEntry]) -> Continuation {
        var continuation = Continuation()
        let (downloads, named) = matched(consume entries, noting: &continuation)
        continuation.complete = downloads.count { $0.state == .complete }
        continuation.continued = named.count
        continuation.ids = queue.restore(consume downloads)
        return continuation
    }

    /// Queues `entries` after the stored downloads were restored (`restoreAll`): an entry
    /// naming a stored download is that download, already queued; the others are added at the
    /// end, `chunk` at a time, so a long queue file shows its count growing. Returns how many
    /// were added. Off the UI's loop: it looks at the disk.
    @discardableResult
    public func addAfterRestore(_ entries: consuming [QueueEntry], chunk: Int = 50_000) -> Int {
        var continuation = Continuation()
        let (downloads, named) = matched(consume entries, noting: &continuation)
        let fresh = downloads.filter { !named.contains($0.id) }
        for start in stride(from: 0, to: fresh.count, by: max(chunk, 1)) {
            queue.restore(Array(fresh[start..<min(start + max(chunk, 1), fresh.count)]))
        }
        return fresh.count
    }

    /// Queues every stored download as it was (the full-screen UI's queue), then `entries`, each
    /// continuing a stored download it names (see `continueOrAdd`) or added at the end.
    /// Returns how many entries continued a stored download.
    @discardableResult
    public func restoreAll(adding entries: [QueueEntry]) -> Int {
        var continuation = Continuation()
        let (downloads, named) = matched(entries, noting: &continuation)
        let kept = stored.filter { !named.contains($0.id) }
        queue.restore(kept + downloads)
        return named.count
    }

    /// The downloads `entries` ask for, stored ones continued, and the ids of those continued;
    /// files found on disk go into `continuation`.
    private func matched(
        _ entries: consuming [QueueEntry],
        noting continuation: inout Continuation
    ) -> (downloads: [Download], named: Set<String>) {
        // Every download still in the store belongs to a run that did not end: completed ones
        // too (a run killed after a file was saved), which stay complete rather than being
        // fetched again under a new name.
        var earlier: [String: [Download]] = [:]
        for download in stored {
            earlier[download.uris.joined(separator: "\t"), default: []].append(download)
        }
        var named = Set<String>()
        // Read once, and only when an entry is new to the queue.
        var saved: [String: DownloadStore.SavedFile]?
        var listings = DirectoryListings()
        let downloads = entries.map { entry -> Download in
            var fresh = queue.newDownload(for: entry)
            let key = entry.uris.joined(separator: "\t")
            guard let index = earlier[key]?.firstIndex(where: { StoredQueue.continues($0, fresh) }),
                var download = earlier[key]?.remove(at: index)
            else {
                if saved == nil { saved = (try? store.savedFiles()) ?? [:] }
                notice(filesOf: &fresh, history: saved?[fresh.displayURI], listings: &listings, noting: &continuation)
                return fresh
            }
            named.insert(download.id)
            // A corrected digest is the entry's: the file kept after a mismatch is checked
            // against it without downloading again.
            download.options.checksum = fresh.options.checksum
            if ![.queued, .active, .complete].contains(download.state) {
                download.state = fresh.state
                download.attempts = 0
                download.lastError = nil
            }
            return download
        }
        return (downloads, named)
    }

    /// What a new download finds on disk: the file an earlier run saved (then it is complete),
    /// or under `continue=true` a file another tool left unfinished (then it continues it);
    /// without `continue=true` such a file is noted as one `-c` would continue. Overwriting and
    /// conditional gets ask the server instead.
    private func notice(
        filesOf fresh: inout Download, history: DownloadStore.SavedFile?, listings: inout DirectoryListings,
        noting continuation: inout Continuation
    ) {
        // Nothing to find: no file the history remembers, and nothing in the directory.
        guard let directory = fresh.directory, history != nil || !listings.isEmpty(directory) else { return }
        let defaults = queue.configuration.defaults
        let out = fresh.options.out ?? defaults.out
        guard (fresh.options.allowOverwrite ?? defaults.allowOverwrite) != true,
            (fresh.options.conditionalGet ?? defaults.conditionalGet) != true
        else { return }
        // The name `fresh` would be saved as, worked out once for every check below, and looked
        // at only when its directory lists it (one listing for a million entries, not a million
        // calls).
        let expected = fresh.uris.first.flatMap { FileNaming.expectedName(out: out, uri: $0) }
            .flatMap { listings.contains($0, in: directory) ? FileNaming.path(for: $0, in: directory) : nil }
        if let file = savedFile(for: fresh, history: history, out: out, in: directory, expected: expected) {
            fresh.state = .complete
            fresh.destination = file.destination
            fresh.totalBytes = file.bytes
            fresh.completed = ByteRanges(file.bytes > 0 ? [0..<file.bytes] : [])
            return
        }
        guard let path = expected else { return }
        guard (fresh.options.continueExisting ?? defaults.continueExisting) == true else {
            if FileManager.default.fileExists(atPath: path) { continuation.continuable.append(path) }
            return
        }
        do {
            guard let unfinished = try UnfinishedFile.find(at: path) else { return }
            try unfinished.continueAs(&fresh)
            continuation.unfinished.append(unfinished)
        } catch {
            continuation.problems.append("\(error); it is downloaded again beside it")
        }
    }

    /// The file an earlier run saved for `fresh`'s URI, when it is still that download,
    /// complete, as `wget -c` and `aria2c -c` see it: the file the history names, in the same
    /// place (its `out`, or its directory), a regular file of the size saved and not changed
    /// since; else the file `fresh` would be saved as (its `out`, else the URL's name) when
    /// its mark (`SavedFileMark`) says it came from that URI unchanged, as after a run whose
    /// store could not be written. `expected` is that file's path.
    private func savedFile(
        for fresh: Download, history: DownloadStore.SavedFile?, out: String?,
        in directory: String, expected: String?
    ) -> DownloadStore.SavedFile? {
        if let history, isStillSaved(history, out: out, in: directory) { return history }
        // The mark is read only from a regular file of the size and mtime it records.
        guard let path = expected, let size = SavedFileMark.savedSize(of: path, uri: fresh.displayURI) else {
            return nil
        }
        return DownloadStore.SavedFile(destination: path, bytes: size, finishedAt: Date())
    }

    /// Whether the file the history names is in the place `out` and `directory` say, of the
    /// size saved and unchanged since it was saved.
    private func isStillSaved(_ file: DownloadStore.SavedFile, out: String?, in directory: String) -> Bool {
        if let out {
            guard file.destination == FileNaming.path(for: out, in: directory) else { return false }
        } else {
            guard (file.destination as NSString).deletingLastPathComponent == directory else { return false }
        }
        var status = stat()
        guard lstat(file.destination, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            Int64(status.st_size) == file.bytes
        else { return false }
        // Modified after it was saved (a second of slack for the clocks' rounding): changed.
        return Double(status.st_mtim.tv_sec) <= file.finishedAt.timeIntervalSince1970 + 1
    }

    /// Whether `fresh` asks for the stored download `earlier`: the same directory and options,
    /// but for the checksum, which a rerun may correct.
    private static func continues(_ earlier: Download, _ fresh: Download) -> Bool {
        guard earlier.directory == fresh.directory else { return false }
        if earlier.options == fresh.options { return true }
        var withoutDigest = (earlier: earlier.options.values, fresh: fresh.options.values)
        withoutDigest.earlier.checksum = nil
        withoutDigest.fresh.checksum = nil
        return withoutDigest.earlier == withoutDigest.fresh
    }

    /// Queues every stored download that was queued or running when its run ended.
    public func continueUnfinished() -> [String] {
        queue.restore(stored.filter { $0.state == .queued || $0.state == .active })
    }

    /// A stored download checked against the disk: one whose partial file is gone but whose file
    /// is there was named after its last checkpoint, so it is complete; one whose file is not
    /// there, or is another download's (its mark names another gid), starts over. A download that
    /// ran without a partial file (a file with no name, named when complete) is complete when
    /// the file it would be saved as carries its gid.
    static func reconciled(_ download: Download) -> Download {
        guard !download.state.isFinal else { return download }
        if download.attempts > 0, download.destination.map(FileManager.default.fileExists) != true,
            let directory = download.directory,
            let expected = download.uris.first.flatMap(URL.init(string:)).flatMap({ url in
                FileNaming.expectedPath(out: download.options.out, url: url, directory: directory)
            }), SavedFileMark.gid(of: expected) == download.id
        {
            return completed(download, at: expected)
        }
        guard let destination = download.destination, let partial = download.partialPath,
            !FileManager.default.fileExists(atPath: partial)
        else { return download }
        let owner = SavedFileMark.gid(of: destination)
        if FileManager.default.fileExists(atPath: destination), owner == nil || owner == download.id {
            return completed(download, at: destination)
        }
        var download = download
        download.completed.removeAll()
        download.destination = nil
        return download
    }

    /// `download` complete, saved at `path`.
    private static func completed(_ download: Download, at path: String) -> Download {
        var download = download
        download.state = .complete
        download.destination = path
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int64 {
            download.completed = ByteRanges([0..<size])
            download.totalBytes = size
        }
        return download
    }
}

/// The queue a `StoredQueue`'s event handler takes ended downloads off: set once the queue
/// exists, read on the queue's callback queue; weak, as the queue holds the handler.
private final class QueueReference: Sendable {
    private struct Weak {
        weak var queue: DownloadQueue?
    }

    private let reference = Mutex(Weak())

    var queue: DownloadQueue? {
        get { reference.withLock { $0.queue } }
        set { reference.withLock { $0.queue = newValue } }
    }
}
