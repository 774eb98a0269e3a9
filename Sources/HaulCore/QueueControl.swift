// MARK: - QueueControl

/// The commands a front end gives a queue: haul's own (`DownloadQueue`), or a daemon's over
/// JSON-RPC (`RemoteQueue`). Each returns at once; what comes of it arrives as `DownloadEvent`s.
/// Any thread.
public protocol QueueControl: AnyObject, Sendable {
    /// How many downloads run at once (`-j`), as the queue was started with.
    var maxConcurrentDownloads: Int { get }
    /// Whether `remove(_:deletingFiles:)` can delete a download's files: not on another machine.
    var canDeleteFiles: Bool { get }

    /// Queues `entries` in order.
    func submit(_ entries: [QueueEntry])
    func pause(_ id: String)
    func resume(_ id: String)
    func cancel(_ id: String)
    func retry(_ id: String)
    func remove(_ ids: [String])
    /// Takes download `id` off the queue and deletes its files; returns the paths deleted. Runs
    /// file-system calls: not on a thread that must not wait on the disk.
    func remove(_ id: String, deletingFiles: Bool) -> [String]
    func move(_ id: String, _ move: DownloadQueue.Move)
    func setMaxDownloadLimit(_ id: String, _ bytesPerSecond: Int64?)
    func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?)
    func authenticate(_ id: String, user: String, password: String)
}

extension DownloadQueue: QueueControl {
    public var maxConcurrentDownloads: Int { configuration.maxConcurrentDownloads }
    public var canDeleteFiles: Bool { true }

    public func submit(_ entries: [QueueEntry]) { add(entries) }
}
