import HaulNet

// MARK: - BuiltInOptions

/// haul's value of each option that nothing sets (no command line, no config.toml, no queue
/// file, no client), typed, for where the option is used; `DownloadOptionTable` declares each
/// with its option, so help and `getGlobalOption` show the same values.
public enum BuiltInOptions {
    /// Downloads that run at once (`max-concurrent-downloads`, the queue's own option).
    public static let maxConcurrentDownloads = 5
    /// Connections a split download uses at most (`split`).
    public static let split = 5
    /// Connections to one server of a download (`max-connection-per-server`).
    public static let maxConnectionPerServer = 1
    /// The smallest range a split gives a connection (`min-split-size`).
    public static let minSplitSize: Int64 = 20 << 20
    /// Connections to one server a download split automatically may grow to (`split-mode`).
    public static let autoConnectionsPerServer = 16
    /// Connections in all such a download may grow to, over its mirrors.
    public static let autoConnections = 16
    /// The smallest range an automatic split gives a connection, unless `-k` says.
    public static let autoMinSplitSize: Int64 = 1 << 20
    /// Attempts before a download fails (`max-tries`).
    public static let maxTries = 5
    /// Seconds without the speed below `lowestSpeedLimit` ends an attempt (`timeout`).
    public static let timeout = 60
    /// The speed below which, for `timeout`, an attempt ends (`lowest-speed-limit`): a server
    /// that sends a byte now and then never finishes, and holds a slot as long as it is let.
    public static let lowestSpeedLimit = SpeedLimit(bytesPerSecond: 100)
    /// A whole body of at most this many bytes is written to a file with no name, named when
    /// complete (`resumable-above`): fetched again after a crash in well under a second on the
    /// links haul is for, while a partial file's store write and rename cost more than such a
    /// file's transfer on a fast one. Longer bodies keep a resumable `NAME.part`.
    public static let resumableAbove: Int64 = 8 << 20
    /// What requests say haul is (`user-agent`).
    public static let userAgent = Request.defaultUserAgent

    /// Each option's built-in value by aria2's name, as `getGlobalOption` shows what is in effect.
    public static var pairs: [(String, String)] {
        DownloadOptionTable.all.compactMap { option in option.builtIn.map { (option.name, $0) } }
    }
}
