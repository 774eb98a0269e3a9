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
    /// The complete downloads `settle` took off the stored queue already.
    private let settled = Mutex<Set<GID>>([])

    /// Makes the queue of a store opened already (`Opened` takes the state directory's lock).
    /// `onStoreError` runs when a checkpoint cannot be written (the changes are kept for the next).
    /// `maxDownloadResults`: the queue keeps at most this many ended downloads, the oldest
    /// leaving it (`--max-download-result`); nil keeps all.
    ///
    /// - Parameters:
    ///   - opened: The store, locked and read.
    ///   - configuration: The queue's settings.
    ///   - engine: The engine thread its transfers run on.
    ///   - checkpointInterval: Seconds between writes of the queue's changes.
    ///   - maxDownloadResults: The most ended downloads kept, or nil for all.
    ///   - onStoreError: Gets each failed write's error.
    ///   - onEvent: Gets every event, after the store has filed it, on the queue's `callbackQueue`.
    public init(
        opened: Opened, configuration: DownloadQueue.Configuration, engine: ConnectionEngine = .shared,
        checkpointInterval: Double = 1, maxDownloadResults: Int? = nil,
        onStoreError: @escaping @Sendable (StoreError) -> Void,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void
    ) {
        directory = opened.directory
        store = opened.store
        stored = opened.stored
        problems = opened.problems
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
        queue.saveTorrents()
        checkpointer.flush()
    }

    /// Ends a run: the torrents' resume data is kept and their session closed, then every change
    /// is written to the store (as `flush`). The queue runs no torrent after. Not to be called on
    /// the queue's `callbackQueue`.
    public func close() {
        queue.callbackQueue.sync {}
        queue.closeTorrents()
        checkpointer.flush()
    }

    /// Ends a run that stops here (`haul get`), as `close` does, and the complete downloads leave
    /// the stored queue, the store's history keeping them; every change is written before it
    /// returns. The queue itself still holds them, so it is not to be run after: taking a thousand finished
    /// downloads off it (their slots, their activity, a table rebuilt) cost a run of small files
    /// more than the store's write of them. Not to be called on the queue's `callbackQueue`.
    public func finish() {
        queue.callbackQueue.sync {}
        queue.closeTorrents()
        takeOffCompleted()
        checkpointer.flush()
    }

    /// Takes the downloads complete so far off the stored queue (the history keeps them) and
    /// writes them on the checkpointer's queue, without waiting: `haul get` calls it as its last
    /// downloads run, so that `finish` has only theirs to write once they end (a thousand small
    /// files' history rows were a wait between the last file and the exit). Done on the
    /// `callbackQueue`, between its blocks: a download the queue holds complete has had its
    /// ending filed with the checkpointer there (an ending's effects run in the block that
    /// handled it), so no removal goes ahead of the ending it must follow.
    public func settle() {
        queue.callbackQueue.async { [self] in
            takeOffCompleted()
            checkpointer.writeSoon()
        }
    }

    /// Records the removal of every complete download not taken off already (each after its
    /// ending: on the `callbackQueue`, or once it has no more to deliver).
    private func takeOffCompleted() {
        let complete = queue.ids(in: [.complete])
        let fresh = settled.withLock { settled in complete.filter { settled.insert($0).inserted } }
        for id in fresh { checkpointer.record(.removed(id: id)) }
    }

    // MARK: - Continuing

    /// What `continueOrAdd` did with its entries.
    public struct Continuation: Sendable {
        /// The downloads' ids, in entry order.
        public var ids: [GID] = []
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
        /// Downloads of an earlier run whose partial data is dropped
        /// (`Download.losesPartialDataOnRestart`), as they were stored.
        public var startingOver: [Download] = []
    }

    /// Pieces of a long queue file queued before the store is let catch up.
    static let piecesAhead = 4

    /// Queues `entries`, each continuing the stored download it names when there is one (same
    /// URIs, options and directory) and added anew otherwise: complete when an earlier run saved
    /// its file, continuing a file another tool left when it says `continue=true`. Continued
    /// downloads that failed, were cancelled or paused are queued again with fresh attempts;
    /// completed ones stay complete.
    ///
    /// They are queued in pieces: first enough to keep every slot busy for a while
    /// (`firstPiece`), started on this thread before the rest is matched (a cost for every entry,
    /// which the first transfer of a run of 1000 files waited for), then `chunk` at a time,
    /// each stored while the next is matched. Not to be called on the queue's `callbackQueue`,
    /// whose events it waits for.
    ///
    /// - Parameters:
    ///   - entries: The downloads asked for (the command line, a queue file).
    ///   - chunk: How many are matched and stored at a time after the first piece.
    /// - Returns: The downloads' gids and what was continued, complete or left by another tool.
    public func continueOrAdd(_ entries: consuming [QueueEntry], chunk: Int = 50_000) -> Continuation {
        var continuation = Continuation()
        var matcher = EntryMatcher(stored: stored, queue: queue, store: store)
        let entries = consume entries
        continuation.ids.reserveCapacity(entries.count)
        queue.reserveCapacity(adding: entries.count)
        // Held as pieces, each let go once queued: the entries of a million-line file are some
        // tens of megabytes that would otherwise last until the last download is made.
        let first = min(chunk, StoredQueue.firstPiece(queue.configuration.maxConcurrentDownloads))
        var pieces = StoredQueue.pieces(of: entries.count, first: first, size: chunk).map { Array(entries[$0]) }
        _ = consume entries
        for number in pieces.indices {
            let downloads = pieces[number].map { matcher.match($0, noting: &continuation) }
            pieces[number] = []
            continuation.complete += downloads.count { $0.state == .complete }
            continuation.ids += queue.restore(downloads, startingHere: number == 0)
            // The store is let catch up every few pieces: the pieces it has not written yet
            // are held in memory meanwhile.
            if number % StoredQueue.piecesAhead == StoredQueue.piecesAhead - 1 {
                queue.callbackQueue.sync {}
                checkpointer.catchUp()
            }
        }
        continuation.continued = matcher.named.count
        return continuation
    }

    /// Queues `entries` after the stored downloads were restored (`restoreAll`): an entry
    /// naming a stored download is that download, already queued; the others are added at the
    /// end, `chunk` at a time, so a long queue file shows its count growing. Returns how many
    /// were added. Off the UI's loop: it looks at the disk.
    ///
    /// - Parameters:
    ///   - entries: The downloads asked for.
    ///   - chunk: How many are added at a time.
    /// - Returns: How many were added anew.
    @discardableResult
    public func addAfterRestore(_ entries: consuming [QueueEntry], chunk: Int = 50_000) -> Int {
        var continuation = Continuation()
        var matcher = EntryMatcher(stored: stored, queue: queue, store: store)
        let downloads = entries.map { matcher.match($0, noting: &continuation) }
        let fresh = downloads.filter { !matcher.named.contains($0.id) }
        for piece in StoredQueue.pieces(of: fresh.count, first: chunk, size: chunk) {
            queue.restore(Array(fresh[piece]))
        }
        return fresh.count
    }

    /// How many entries the first piece of a queue file holds with `slots` downloads at a time:
    /// four rounds of them, so the slots stay busy while the next piece is matched.
    static func firstPiece(_ slots: Int) -> Int {
        4 * max(slots, 4)
    }

    /// `0..<count` cut into a range of `first`, then ranges of `size` (the last may be shorter).
    static func pieces(of count: Int, first: Int, size: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let (head, size) = (0..<min(max(first, 1), count), max(size, 1))
        return [head] + stride(from: head.upperBound, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// Queues every stored download as it was (the full-screen UI's queue), then `entries`, each
    /// continuing a stored download it names (see `continueOrAdd`) or added at the end.
    /// Returns how many entries continued a stored download.
    ///
    /// - Parameter entries: The downloads asked for (the command line, a queue file).
    /// - Returns: How many continued a stored download.
    @discardableResult
    public func restoreAll(adding entries: [QueueEntry]) -> Int {
        var continuation = Continuation()
        var matcher = EntryMatcher(stored: stored, queue: queue, store: store)
        let downloads = entries.map { matcher.match($0, noting: &continuation) }
        let kept = stored.filter { !matcher.named.contains($0.id) }
        queue.restore(kept + downloads)
        return matcher.named.count
    }

    /// Queues every stored download that was queued or running when its run ended.
    ///
    /// - Returns: Their gids, in queue order.
    public func continueUnfinished() -> [GID] {
        queue.restore(stored.filter { $0.state == .queued || $0.state == .active })
    }

    /// A stored download checked against the disk: one whose partial file is gone but whose file
    /// is there was named after its last checkpoint, so it is complete; one whose file is not
    /// there, or is another download's (its mark names another gid), starts over. A download that
    /// ran without a partial file (a file with no name, named when complete) is complete when
    /// the file it would be saved as carries its gid.
    /// A torrent is left as it is: libtorrent checks its files against its resume data.
    static func reconciled(_ download: Download) -> Download {
        guard !download.state.isFinal, download.torrentLink == nil else { return download }
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
