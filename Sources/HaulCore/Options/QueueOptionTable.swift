// MARK: - QueueOptionTable

/// The options of the whole queue, not of one download (`max-concurrent-downloads`,
/// `max-overall-download-limit`, `max-connections-per-host`, `bandwidth-schedule`): each a row
/// with its name, its kind (the same `OptionKind`s a download's options use, so one rule checks
/// a value wherever it comes from: the command line, config.toml, RPC, the local socket,
/// `--connect`), who may set it, whether it changes while the queue runs, its built-in value and
/// its help. The one place each is spelled.
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
        /// haul's value when nothing sets it, as text (`getGlobalOption`'s, aria2's form); nil
        /// when unset means none.
        public let builtIn: String?
        /// The least trusted source that may set it (`OptionSource`).
        public let settableBy: OptionSource
        /// Whether it changes while the queue runs (`changeGlobalOption`); else it is set when
        /// haul starts.
        public let changesLive: Bool
        /// Where aria2 takes the option (`Aria2OptionCatalog.Scope`), nil for one of haul's own.
        public let aria2Scope: Aria2OptionCatalog.Scope?
        let assign: @Sendable (inout Values, String) throws(OptionError) -> Void
        /// Its value as text, nil when unset.
        let text: @Sendable (Values) -> String?

        static func row<Value>(
            _ name: String, _ field: WritableKeyPath<Values, Value> & Sendable, _ kind: OptionKind<Value>,
            short: Character? = nil, settableBy: OptionSource, changesLive: Bool = true, aria2: String? = nil,
            help: String
        ) -> Option {
            Option(
                name: name, short: short, valueName: kind.valueName, help: help,
                builtIn: kind.format(Values()[keyPath: field], false), settableBy: settableBy, changesLive: changesLive,
                aria2Scope: aria2.map(Aria2OptionCatalog.Scope.init(letters:)),
                assign: { values, text throws(OptionError) in values[keyPath: field] = try kind.parse(text) },
                text: { kind.format($0[keyPath: field], false) })
        }

        /// A row whose value is nil until set, and set when haul starts only.
        static func startRow<Value>(
            _ name: String, _ field: WritableKeyPath<Values, Value?> & Sendable, _ kind: OptionKind<Value>,
            settableBy: OptionSource, aria2: String? = nil, help: String
        ) -> Option {
            Option(
                name: name, short: nil, valueName: kind.valueName, help: help, builtIn: nil, settableBy: settableBy,
                changesLive: false, aria2Scope: aria2.map(Aria2OptionCatalog.Scope.init(letters:)),
                assign: { values, text throws(OptionError) in values[keyPath: field] = try kind.parse(text) },
                text: { values in values[keyPath: field].map { kind.format($0, false) } })
        }

        /// Why `source` may not set this option, or nil when it may.
        ///
        /// - Parameter source: Who gives it.
        /// - Returns: A sentence naming the option, the source and where to give it instead.
        public func refusal(from source: OptionSource) -> String? {
            guard source > settableBy else { return nil }
            return "\(name) is not taken from \(source); give it \(settableBy.whereToGive)"
        }
    }

    public static let maxConcurrentDownloads = Option.row(
        "max-concurrent-downloads", \.maxConcurrentDownloads, .integer(1...1000), short: "j",
        settableBy: .networkClient, aria2: "G", help: "Downloads at the same time, 1 to 1000.")
    public static let maxOverallDownloadLimit = Option.row(
        "max-overall-download-limit", \.maxOverallDownloadLimit, .speed, settableBy: .networkClient,
        aria2: "G", help: "Cap all downloads together, e.g. 10M (bytes per second; 0: no cap).")
    public static let maxConnectionsPerHost = Option.row(
        "max-connections-per-host", \.maxConnectionsPerHost, .integer(0...1000), settableBy: .networkClient,
        help: "Downloads from one host at the same time (0: no cap); the rest wait while other hosts' "
            + "downloads run.")
    public static let bandwidthSchedule = Option.startRow(
        "bandwidth-schedule", \.bandwidthSchedule, .parsed("rules"), settableBy: .owner,
        help: "Overall limits by time, the first rule that matches winning: \"08:00-18:00 1M, sat-sun "
            + "10:00-22:00 5M, else unlimited\" (days optional; without else, the overall limit above applies).")

    public static let listenPort = Option.row(
        "listen-port", \.listenPort, .parsed("ports"), settableBy: .owner, changesLive: false, aria2: "",
        help: "The TCP ports BitTorrent listens on for peers, e.g. 6881-6999 (the first free one; 0: any).")
    public static let interface = Option.startRow(
        "interface", \.interface, .nonEmpty, settableBy: .owner, aria2: "",
        help: "The address (or network interface) BitTorrent listens on (default: every address); HTTP, FTP and "
            + "SFTP connections are not bound by it.")
    public static let enableDHT = Option.row(
        "enable-dht", \.enableDHT, .boolean, settableBy: .owner, changesLive: false, aria2: "",
        help: "Find BitTorrent peers through the DHT (true), or only through trackers and magnet links (false).")
    public static let maxOverallUploadLimit = Option.row(
        "max-overall-upload-limit", \.maxOverallUploadLimit, .speed, settableBy: .networkClient, aria2: "G",
        help: "Cap all torrents' upload together, e.g. 1M (bytes per second; 0: no cap).")

    /// Every queue option, in help's order.
    public static let all = [
        maxConcurrentDownloads, maxConnectionsPerHost, maxOverallDownloadLimit, bandwidthSchedule, listenPort,
        interface,
        enableDHT, maxOverallUploadLimit,
    ]

    /// The queue option named `name`, nil when there is none.
    ///
    /// - Parameter name: An option's long name, without `--`.
    /// - Returns: Its row.
    public static func option(named name: String) -> Option? {
        all.first { $0.name == name }
    }
}
