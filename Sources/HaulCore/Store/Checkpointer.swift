import Foundation
import Synchronization

// MARK: - Checkpointer

/// Follows a queue's events and writes them to the `DownloadStore` in batches, at most once per
/// `interval`. Before a download's completed ranges are written, its partial file is synced
/// (`fdatasync`), so the store never claims a byte the disk might not have: progress events are
/// sent only after their bytes were written to the file, and the sync comes after the event.
///
/// **Threading:** `record` may be called from any thread and only files the change; syncing
/// and writing run on the checkpointer's own serial queue.
public final class Checkpointer: DownloadJournal {
    fileprivate struct Pending {
        /// Downloads added since the last checkpoint, as the events carried them (a queue file's
        /// 100,000 entries stay one array, neither copied nor hashed).
        var added: [[Download]] = []
        /// How many downloads `added` holds.
        var addedCount = 0
        /// The newest copy of each changed download, in the order they first changed in.
        var changed = DownloadTable()
        /// Progress of downloads with no newer copy in `changed`: their ranges and length.
        var progress: [GID: DownloadProgress] = [:]
        /// The destination of each download that has one: its partial file (the destination
        /// and `.part`) is synced before its ranges are recorded. Learnt from the copies events
        /// carry, forgotten when the download is gone; the string the copy holds, not a partial
        /// path made for every event.
        var destinations: [GID: String] = [:]
        var removed: [GID] = []
        var orderChanged = false
        /// Torrents' newest resume data.
        var torrentResume: [GID: [UInt8]] = [:]
        var scheduled = false
        /// Whether a checkpoint for a long run of added downloads is on its way.
        var writingAdded = false
        var orderSource: (@Sendable () -> [GID])?
    }

    private let store: DownloadStore
    private let interval: Double
    private let onError: @Sendable (StoreError) -> Void
    private let writer = DispatchQueue(label: "haul.checkpointer")
    private let pending = Mutex(Pending())

    /// `onError` runs on the checkpointer's queue (or the caller's, for `recordDestination`) when
    /// a write fails; the changes are kept and tried again at the next checkpoint.
    ///
    /// - Parameters:
    ///   - store: The store to write to.
    ///   - interval: Seconds between checkpoints.
    ///   - onError: Gets each failed write's error.
    public init(store: DownloadStore, interval: Double = 1, onError: @escaping @Sendable (StoreError) -> Void) {
        self.store = store
        self.interval = interval
        self.onError = onError
    }

    /// Where the queue order comes from when a download is moved.
    func setOrderSource(_ source: @escaping @Sendable () -> [GID]) {
        pending.withLock { $0.orderSource = source }
    }

    // MARK: - Recording

    /// Files `event` for the next checkpoint.
    ///
    /// - Parameter event: A queue event; an activity event is not stored.
    public func record(_ event: DownloadEvent) {
        // What an attempt shows is not stored.
        if case .activity = event { return }
        file { pending in
            switch event {
            case .added(let downloads):
                pending.added.append(downloads)
                pending.addedCount += downloads.count
            case .stateChanged(let download, _), .updated(let download):
                pending.file(download)
            case .progress(let id, let progress):
                let amended = pending.changed.modify(id) { copy in
                    copy.completed = progress.completed
                    copy.totalBytes = progress.totalBytes
                }
                if !amended { pending.progress[id] = progress }
            case .removed(let id):
                // A pending change is still written first: it may be the ending history keeps.
                pending.removed.append(id)
                pending.progress.removeValue(forKey: id)
                pending.destinations.removeValue(forKey: id)
                pending.torrentResume.removeValue(forKey: id)
            case .moved:
                pending.orderChanged = true
            case .activity:
                break
            }
        }
    }

    /// Writes `download` now, outside the once-a-second rhythm: a name is reserved once per
    /// download. It is filed too, so the next checkpoint cannot write an older copy over it (the
    /// queue's older events for it were all recorded before this call, on the same queue). A
    /// checkpoint that took its batch just before and commits just after carries no destination
    /// for it, and the store never lets a missing destination replace a recorded one.
    ///
    /// - Parameter download: The download, with its destination.
    public func recordDestination(of download: Download) {
        file { $0.file(download) }
        do {
            try store.write(DownloadStore.Batch(upserts: [download]))
        } catch {
            onError(error)
        }
    }

    public func recordTorrentResume(_ data: [UInt8], of id: GID) {
        file { $0.torrentResume[id] = data }
    }

    public func torrentResume(of id: GID) -> [UInt8]? {
        if let pending = pending.withLock({ $0.torrentResume[id] }) { return pending }
        do {
            return try store.torrentResume(of: id)
        } catch {
            onError(error)
            return nil
        }
    }

    /// Added downloads that are written at once rather than at the next checkpoint: a long
    /// queue file is stored while the rest of it is still being queued.
    static let addedBatchLimit = 20_000

    /// Applies `change` to the pending changes and makes sure a checkpoint is coming: within
    /// `interval`, or at once when `addedBatchLimit` downloads were added.
    private func file(_ change: (inout Pending) -> Void) {
        enum Schedule { case none, later, now }
        let schedule = pending.withLock { pending -> Schedule in
            change(&pending)
            if pending.addedCount >= Checkpointer.addedBatchLimit, !pending.writingAdded {
                pending.writingAdded = true
                return .now
            }
            guard !pending.scheduled else { return .none }
            pending.scheduled = true
            return .later
        }
        switch schedule {
        case .none: break
        case .later:
            writer.asyncAfter(deadline: .now() + interval) { [self] in
                pending.withLock { $0.scheduled = false }
                checkpoint()
            }
        case .now:
            writer.async { [self] in
                pending.withLock { $0.writingAdded = false }
                checkpoint()
            }
        }
    }

    /// Writes everything filed so far, now, and returns when it is on disk (at quit).
    public func flush() {
        writer.sync { checkpoint() }
    }

    /// Writes what is pending on the checkpointer's queue now, outside the once-a-second
    /// rhythm, without waiting for it.
    func writeSoon() {
        writer.async { [self] in checkpoint() }
    }

    /// Returns once the writes already on their way are done: a long queue file waits here so
    /// that no more than a few pieces of it are held for the store at once.
    func catchUp() {
        writer.sync {}
    }

    // MARK: - Checkpoint

    /// Runs on `writer`.
    private func checkpoint() {
        let (batch, orderSource, progressedPaths) = pending.withLock {
            pending -> (DownloadStore.Batch, (@Sendable () -> [GID])?, [String]) in
            // Added before changed: a later copy of the same download overwrites the first.
            let batch = DownloadStore.Batch(
                added: pending.added, upserts: pending.changed.values,
                progress: pending.progress.map { ($0.key, $0.value) }, removals: pending.removed, order: nil,
                torrentResume: pending.torrentResume.map { ($0.key, $0.value) })
            let source = pending.orderChanged ? pending.orderSource : nil
            let paths = pending.progress.keys.compactMap { pending.destinations[$0].map(FileNaming.partialPath(of:)) }
            // A checkpoint already on its way stays on its way.
            pending = Pending(
                destinations: pending.destinations, scheduled: pending.scheduled, writingAdded: pending.writingAdded,
                orderSource: pending.orderSource)
            return (batch, source, paths)
        }
        var complete = batch
        complete.order = orderSource?()
        for download in complete.allUpserts where !download.completed.isEmpty && download.state != .complete {
            Checkpointer.sync(download.partialPath)
        }
        for path in progressedPaths { Checkpointer.sync(path) }
        do {
            try store.write(complete)
        } catch {
            onError(error)
            refile(complete)
        }
    }

    /// Makes the written bytes of a partial file durable before its ranges are recorded.
    private static func sync(_ path: String?) {
        guard let path else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fdatasync(descriptor)
        close(descriptor)
    }

    /// Puts a batch that could not be written back in front of newer changes.
    private func refile(_ batch: DownloadStore.Batch) {
        file { pending in
            for download in batch.allUpserts
            where pending.changed[download.id] == nil && !pending.removed.contains(download.id) {
                pending.changed[download.id] = download
            }
            for (id, progress) in batch.progress
            where pending.changed[id] == nil && pending.progress[id] == nil && !pending.removed.contains(id) {
                pending.progress[id] = progress
            }
            for (id, data) in batch.torrentResume where pending.torrentResume[id] == nil {
                pending.torrentResume[id] = data
            }
            pending.removed = batch.removals + pending.removed
            pending.orderChanged = pending.orderChanged || batch.order != nil
        }
    }
}

extension Checkpointer.Pending {
    /// Files the newest copy of a download (its progress is in it), and where its file goes.
    mutating func file(_ download: Download) {
        changed[download.id] = download
        progress.removeValue(forKey: download.id)
        if download.state == .complete {
            destinations.removeValue(forKey: download.id)
        } else if let destination = download.destination {
            destinations[download.id] = destination
        }
    }
}
