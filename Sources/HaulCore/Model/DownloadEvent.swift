// MARK: - DownloadEvent

/// What changed in a `DownloadQueue`, each event saying what, so a UI, a journal or a reporter
/// follows without polling and without comparing copies.
public enum DownloadEvent: Sendable, Equatable {
    /// New downloads, in queue order (a queue file arrives as one event).
    case added([Download])
    /// The download went from state `from` to `download.state`; why is in the download
    /// (`lastError`, `errorCode`, `failureNote`, `nextAttemptAt`).
    case stateChanged(Download, from: Download.State)
    /// What the store keeps changed, its state did not: its name, length, validator, options
    /// (a new speed cap), a partial file dropped to start over.
    case updated(Download)
    /// Bytes arrived, or the speed settled.
    case progress(id: GID, DownloadProgress)
    /// What the running attempt shows changed (`DownloadActivity`).
    case activity(id: GID, DownloadActivity.Change)
    /// Moved to index `to` of the queue order.
    case moved(id: GID, to: Int)
    case removed(id: GID)

    /// The download the event is about, when it carries one.
    public var download: Download? {
        switch self {
        case .stateChanged(let download, _), .updated(let download): download
        default: nil
        }
    }
}

// MARK: - DownloadProgress

/// How far a download is: the byte ranges in its partial file, the whole length (-1 while
/// unknown), and how fast bytes arrive (smoothed, bytes a second).
public struct DownloadProgress: Sendable, Equatable {
    public var completed: ByteRanges
    public var totalBytes: Int64
    public var speed: Double

    /// Progress as the queue reports it.
    ///
    /// - Parameters:
    ///   - completed: The bytes in the partial file.
    ///   - totalBytes: The whole length, or -1 while unknown.
    ///   - speed: Bytes a second, smoothed.
    public init(completed: ByteRanges, totalBytes: Int64, speed: Double) {
        self.completed = completed
        self.totalBytes = totalBytes
        self.speed = speed
    }

    public var bytesDone: Int64 { completed.count }
}
