// MARK: - DownloadJournal

/// Where a `DownloadQueue` keeps its changes so that a later run can continue them: the store's
/// `Checkpointer`. Without one, a queue lives only as long as its process.
public protocol DownloadJournal: AnyObject, Sendable {
    /// Files a change. Runs on the queue's `callbackQueue`, for every event, in order, before
    /// the queue's `onEvent` sees it.
    ///
    /// - Parameter event: The queue's event.
    func record(_ event: DownloadEvent)

    /// Makes `download`, just given its destination, durable before its partial file is
    /// created, so a process killed in between leaves no partial file the journal cannot name.
    /// Runs on the queue's `callbackQueue` and returns when the record is written.
    ///
    /// - Parameter download: The download, with its destination.
    func recordDestination(of download: Download)

    /// Keeps torrent `id`'s newest resume data (libtorrent's) with the next checkpoint.
    ///
    /// - Parameters:
    ///   - data: The resume data, bencoded.
    ///   - id: The torrent's download.
    func recordTorrentResume(_ data: [UInt8], of id: GID)

    /// The resume data kept for torrent `id` (the newest, kept or not yet), nil when none is.
    ///
    /// - Parameter id: The torrent's download.
    /// - Returns: The resume data, bencoded.
    func torrentResume(of id: GID) -> [UInt8]?
}
