import HaulCore

// MARK: - ConnectionOptions

/// How many downloads at once, from which mirrors, at what overall speed and when: the queue's
/// options (`QueueOptionTable`, checked by its rows as RPC checks them) and the mirrors (a
/// download's own connection options are in `DownloadOptionTable`).
struct ConnectionOptions {
    var queue = QueueSettings()
    var mirrors: [String] = []
    var streamWindow: Int?

    var maxConcurrentDownloads: Int { queue.maxConcurrentDownloads }

    static let options: [OptionSpec<ConnectionOptions>] =
        QueueOptionTable.all.map(queueOption) + [
            .value(
                "mirror", "url", repeatable: true,
                help: "Another URL of the same file (repeatable, one URL only); with -x/-s, mirrors serve parts in "
                    + "parallel."
            ) { $0.mirrors.append($1) },
            .value(
                "stream-window", "n", hidden: true,
                help: "Downloads from one HTTP/2 host in flight at once as streams of its connection (for measuring)."
            ) { $0.streamWindow = try OptionValue.int($1) },
        ]

    /// A queue option on the command line (and in config.toml): its row's rule, its built-in value
    /// said in help.
    private static func queueOption(_ option: QueueOptionTable.Option) -> OptionSpec<ConnectionOptions> {
        let help = option.builtIn.map { option.help + " Default: \($0)." } ?? option.help
        return .value(option.name, short: option.short, option.valueName, help: help) {
            options, text in
            do {
                try options.queue.set(option.name, text)
            } catch {
                throw UsageError("\(error)")
            }
        }
    }
}
