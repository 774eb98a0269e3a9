import HaulNet

// MARK: - EffectiveOptions

/// A download's options as the queue acts on them: what was given (the download's own over the
/// queue's, nil where nothing was), with haul's built-in value (`BuiltInOptions`) applied here,
/// once, to each option whose absence means nothing more. Splitting is resolved whole
/// (`Splitting`): there, "not given" is itself a choice (automatic splitting while neither `-s`
/// nor `-x` is given). Every other option reads through to the given values.
@dynamicMemberLookup
public struct EffectiveOptions: Sendable {
    /// How a download is split over connections, resolved from `split-mode`, `-s`, `-x` and `-k`.
    public struct Splitting: Sendable, Equatable {
        /// Whether it splits automatically (`split-mode=auto`, neither `-s` nor `-x` given): one
        /// connection first, more while each step pays (`SplitGrowth`).
        public let automatic: Bool
        /// Connections for the download at most, before `-x` caps them per mirror (`-s`).
        public let connections: Int
        /// Connections to one server (`-x`; automatic splitting's own when automatic).
        public let perServer: Int
        /// The smallest range a connection is given (`-k`).
        public let minSplitSize: Int64

        init(_ given: DownloadOptions) {
            automatic =
                (given.splitMode ?? .auto) == .auto && given.split == nil && given.maxConnectionPerServer == nil
            connections = given.split ?? BuiltInOptions.split
            perServer =
                automatic
                ? BuiltInOptions.autoConnectionsPerServer
                : given.maxConnectionPerServer ?? BuiltInOptions.maxConnectionPerServer
            minSplitSize =
                given.minSplitSize ?? (automatic ? BuiltInOptions.autoMinSplitSize : BuiltInOptions.minSplitSize)
        }

        /// How many connections a split may use: automatic splitting's ceiling over its mirrors,
        /// or `-s` capped by `-x` on each.
        ///
        /// - Parameter mirrors: The download's usable mirrors.
        /// - Returns: The most connections its split runs at once.
        public func limit(mirrors: Int) -> Int {
            automatic
                ? min(perServer * max(mirrors, 1), BuiltInOptions.autoConnections)
                : min(connections, perServer * mirrors)
        }
    }

    /// The options as given, nil where nothing set one.
    public let given: DownloadOptions
    /// Attempts before the download fails (0: no limit).
    public let maxTries: Int
    /// Seconds below `lowestSpeedLimit` that end an attempt.
    public let timeout: Int
    /// The speed below which, for `timeout`, an attempt ends.
    public let lowestSpeedLimit: SpeedLimit
    /// The longest whole body that goes to a file with no name (0: none does).
    public let resumableAbove: Int64
    public let splitting: Splitting

    /// The options in effect.
    ///
    /// - Parameter given: The download's options merged over the queue's, nil where unset.
    public init(_ given: DownloadOptions) {
        self.given = given
        maxTries = given.maxTries ?? BuiltInOptions.maxTries
        timeout = given.timeout ?? BuiltInOptions.timeout
        lowestSpeedLimit = given.lowestSpeedLimit ?? BuiltInOptions.lowestSpeedLimit
        resumableAbove = given.resumableAbove ?? BuiltInOptions.resumableAbove
        splitting = Splitting(given)
    }

    /// Any other option, as given. By its key path in `DownloadOptions.Values`, a stored
    /// property's: a key path through `DownloadOptions`' own member lookup is made anew at each
    /// use (it carries an argument), which cost a small file's download tens of microseconds.
    ///
    /// - Parameter key: The option's field.
    /// - Returns: Its value as given, nil when unset.
    public subscript<Value>(dynamicMember key: WritableKeyPath<DownloadOptions.Values, Value>) -> Value {
        given[dynamicMember: key]
    }

    /// Whether an automatic split may grow for a file: one longer than `resumable-above` (a
    /// shorter body is taken whole, in a file with no name) with room for a few connections' parts.
    ///
    /// - Parameter total: The file's length in bytes.
    /// - Returns: Whether more connections may be added to it.
    public func mayGrow(total: Int64) -> Bool {
        total > resumableAbove && total >= 4 * splitting.minSplitSize
    }
}
