import Foundation

// MARK: - QueueControl

/// The commands a front end gives a queue: haul's own (`DownloadQueue`), or a daemon's over
/// JSON-RPC (`RemoteQueue`). Each returns at once; what comes of it arrives as `DownloadEvent`s.
/// Any thread.
public protocol QueueControl: AnyObject, Sendable {
    /// How many downloads run at once (`-j`), as the queue was started with.
    var maxConcurrentDownloads: Int { get }
    /// Whether `remove(_:deletingFiles:)` can delete a download's files: not on another machine.
    var canDeleteFiles: Bool { get }
    /// Whether its downloads go on when the front end quits: a daemon's (or another haul's) do.
    var outlivesFrontEnd: Bool { get }

    /// Queues `entries` in order.
    ///
    /// - Parameter entries: The downloads to add; an entry with `pause=true` is added paused.
    func submit(_ entries: [QueueEntry])
    /// Stops a queued or active download, keeping what it received.
    ///
    /// - Parameter id: The download; one that is neither queued nor active is left as it is.
    func pause(_ id: GID)
    /// Queues a paused download again; it continues from where it stopped.
    ///
    /// - Parameter id: The download; one that is not paused is left as it is.
    func resume(_ id: GID)
    /// Stops a download for good, keeping its partial file so `retry` can continue it.
    ///
    /// - Parameter id: The download; one that has ended is left as it is.
    func cancel(_ id: GID)
    /// Queues a failed or cancelled download again, with a fresh count of attempts.
    ///
    /// - Parameter id: The download; one that has not failed or been cancelled is left as it is.
    func retry(_ id: GID)
    /// Takes downloads off the queue (their files stay), in one pass over the queue order.
    ///
    /// - Parameter ids: The downloads; unknown gids are passed over.
    func remove(_ ids: [GID])
    /// Takes download `id` off the queue and, when asked, deletes its file and partial file.
    /// Runs file-system calls: call it off any thread that must not wait on the disk (the UI's
    /// loop).
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - deletingFiles: Whether its file and partial file are deleted too.
    /// - Returns: The paths deleted.
    func remove(_ id: GID, deletingFiles: Bool) -> [String]
    /// Moves a download in the queue order; a download moved ahead of others is admitted first.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - move: Where to: up or down one, to the top or bottom, or to an index.
    func move(_ id: GID, _ move: DownloadQueue.Move)
    /// Changes one download's speed cap, at once if it is running.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - bytesPerSecond: The cap, or nil for none.
    func setMaxDownloadLimit(_ id: GID, _ bytesPerSecond: Int64?)
    /// Gives download `id` options that change without a new attempt (`DownloadOption.Change.live`:
    /// a torrent's `select-file`, seeding's ratio and time, speed caps), at once if it runs.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - options: The options that change.
    func changeLiveOptions(_ id: GID, _ options: DownloadOptions)
    /// Asks for torrent `id`'s files, peers, trackers and pieces (`TorrentDetail`); `reply` gets
    /// them, or nil for a download that is not a torrent or whose files are not known yet.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - reply: Called once, on another thread (the asking waits for libtorrent or a daemon).
    func askTorrentDetail(_ id: GID, reply: @escaping @Sendable (TorrentDetail?) -> Void)
    /// Caps all downloads together, shared by the running transfers, at once.
    ///
    /// - Parameter bytesPerSecond: The cap, or nil for none.
    func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?)
    /// Gives a download the user name and password to answer its server's challenge with (its
    /// `http-user` and `http-passwd`), and queues it again, with a fresh count of attempts, if
    /// it had failed or was cancelled.
    ///
    /// - Parameters:
    ///   - id: The download.
    ///   - user: The user name.
    ///   - password: The password; kept out of logs and saved sessions.
    func authenticate(_ id: GID, user: String, password: String)
}

extension DownloadQueue: QueueControl {
    public var maxConcurrentDownloads: Int { configuration.maxConcurrentDownloads }
    public var canDeleteFiles: Bool { true }
    public var outlivesFrontEnd: Bool { false }

    public func submit(_ entries: [QueueEntry]) { add(entries) }

    public func askTorrentDetail(_ id: GID, reply: @escaping @Sendable (TorrentDetail?) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in reply(torrentDetail(of: id)) }
    }
}
