// MARK: - QueueOptionTable

/// The options of the whole queue, not of one download (`max-concurrent-downloads`,
/// `max-overall-download-limit`, `max-connections-per-host`): each a row with its name, its kind
/// (the same `OptionKind`s a download's options use, so one rule checks a value wherever it comes
/// from: the command line, config.toml, RPC, the local socket, `--connect`), its built-in value
/// and its help. The one place each is spelled.
public enum QueueOptionTable {
    public typealias Values = QueueSettings

    /// One option of the queue.
    public struct Option: Sendable {
        /// aria2's name, without `--`.
        public let name: String
        /// The command line's one-letter form, when it has one.
        public let short: Character?
        /// What help calls the value.
        public let valueName: String
        /// What the option does, for help and the manual.
        public let help: String
        /// haul's value when nothing sets it, as text (`getGlobalOption`'s, aria2's form).
        public let builtIn: String
        let assign: @Sendable (inout Values, String) throws(OptionError) -> Void
        let text: @Sendable (Values) -> String

        static func row<Value>(
            _ name: String, _ field: WritableKeyPath<Values, Value> & Sendable, _ kind: OptionKind<Value>,
            short: Character? = nil, help: String
        ) -> Option {
            Option(
                name: name, short: short, valueName: kind.valueName, help: help,
                builtIn: kind.format(Values()[keyPath: field], false),
                assign: { values, text throws(OptionError) in values[keyPath: field] = try kind.parse(text) },
                text: { kind.format($0[keyPath: field], false) })
        }
    }

    public static let maxConcurrentDownloads = Option.row(
        "max-concurrent-downloads", \.maxConcurrentDownloads, .integer(1...1000), short: "j",
        help: "Downloads at the same time, 1 to 1000.")
    public static let maxOverallDownloadLimit = Option.row(
        "max-overall-download-limit", \.maxOverallDownloadLimit, .speed,
        help: "Cap all downloads together, e.g. 10M (bytes per second; 0: no cap).")
    public static let maxConnectionsPerHost = Option.row(
        "max-connections-per-host", \.maxConnectionsPerHost, .integer(0...1000),
        help: "Downloads from one host at the same time (0: no cap); the rest wait while other hosts' "
            + "downloads run.")

    /// Every queue option, in help's order.
    public static let all = [maxConcurrentDownloads, maxConnectionsPerHost, maxOverallDownloadLimit]

    /// The queue option named `name`, nil when there is none.
    ///
    /// - Parameter name: An option's long name, without `--`.
    /// - Returns: Its row.
    public static func option(named name: String) -> Option? {
        all.first { $0.name == name }
    }
}

// MARK: - QueueSettings

/// The values of the queue's options (`QueueOptionTable`), built-in until set.
public struct QueueSettings: Sendable, Equatable {
    public var maxConcurrentDownloads = BuiltInOptions.maxConcurrentDownloads
    public var maxOverallDownloadLimit = SpeedLimit.none
    public var maxConnectionsPerHost = 0

    /// Every option at its built-in value.
    public init() {}

    /// Sets the option `name` from `text`, checked by its row.
    ///
    /// - Parameters:
    ///   - name: A queue option's long name.
    ///   - text: Its value as a person or a client wrote it.
    /// - Throws: `OptionError` naming what is wrong with the value, or that there is no such option.
    public mutating func set(_ name: String, _ text: String) throws(OptionError) {
        guard let option = QueueOptionTable.option(named: name) else { throw OptionError.unknownOption(name) }
        try option.assign(&self, text)
    }

    /// The value of the option `name` as text (aria2's form), nil when there is no such option.
    ///
    /// - Parameter name: A queue option's long name.
    /// - Returns: Its value, such as `5` or `1048576`.
    public func text(of name: String) -> String? {
        QueueOptionTable.option(named: name).map { $0.text(self) }
    }
}
