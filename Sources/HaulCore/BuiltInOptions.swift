import HaulNet

// MARK: - BuiltInOptions

/// haul's value of each option that nothing sets (no command line, no config.toml, no queue
/// file, no client): one place, read where the option is used, and shown as it is in effect by
/// `getGlobalOption` (an aria2 client's settings page shows no blank field for them).
public enum BuiltInOptions {
    /// Connections a split download uses at most (`split`).
    public static let split = 5
    /// Connections to one server of a download (`max-connection-per-server`).
    public static let maxConnectionPerServer = 1
    /// The smallest range a split gives a connection (`min-split-size`).
    public static let minSplitSize: Int64 = 20 << 20
    /// Attempts before a download fails (`max-tries`).
    public static let maxTries = 5
    /// Seconds without the speed below `lowestSpeedLimit` ends an attempt (`timeout`).
    public static let timeout = 60
    /// Bytes a second below which, for `timeout`, an attempt ends (`lowest-speed-limit`): a
    /// server that sends a byte now and then never finishes, and holds a slot as long as it is let.
    public static let lowestSpeedLimit: Int64 = 100

    /// Each of them by aria2's name, with the other options' values in effect when unset.
    public static var pairs: [(String, String)] {
        [
            ("split", String(split)), ("max-connection-per-server", String(maxConnectionPerServer)),
            ("min-split-size", String(minSplitSize)), ("max-tries", String(maxTries)), ("timeout", String(timeout)),
            ("lowest-speed-limit", String(lowestSpeedLimit)), ("user-agent", Request.defaultUserAgent),
            ("continue", "false"), ("allow-overwrite", "false"), ("auto-file-renaming", "true"),
            ("conditional-get", "false"), ("remote-time", "false"), ("follow-metalink", "true"),
            ("max-download-limit", "0"), ("pause", "false"), ("dry-run", "false"), ("ftp-pasv", "true"),
        ]
    }
}
