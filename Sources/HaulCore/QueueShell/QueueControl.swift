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
    func submit(_ entries: [QueueEntry])
    func pause(_ id: GID)
    func resume(_ id: GID)
    func cancel(_ id: GID)
    func retry(_ id: GID)
    func remove(_ ids: [GID])
    /// Takes download `id` off the queue and deletes its files; returns the paths deleted. Runs
    /// file-system calls: not on a thread that must not wait on the disk.
    func remove(_ id: GID, deletingFiles: Bool) -> [String]
    func move(_ id: GID, _ move: DownloadQueue.Move)
    func setMaxDownloadLimit(_ id: GID, _ bytesPerSecond: Int64?)
    func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?)
    func authenticate(_ id: GID, user: String, password: String)
}

extension DownloadQueue: QueueControl {
    public var maxConcurrentDownloads: Int { configuration.maxConcurrentDownloads }
    public var canDeleteFiles: Bool { true }
    public var outlivesFrontEnd: Bool { false }

    public func submit(_ entries: [QueueEntry]) { add(entries) }
}
