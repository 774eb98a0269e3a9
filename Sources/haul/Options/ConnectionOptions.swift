import HaulCore

// MARK: - ConnectionOptions

/// How many downloads at once, from which mirrors, at what overall speed (a download's own
/// connection options are in `DownloadOptionTable`).
struct ConnectionOptions {
    var maxConcurrentDownloads = BuiltInOptions.maxConcurrentDownloads
    var maxConnectionsPerHost = 0
    var mirrors: [String] = []
    var maxOverallDownloadLimit = SpeedLimit.none
    var bandwidthSchedule: BandwidthSchedule?
    var streamWindow: Int?

    static let options: [OptionSpec<ConnectionOptions>] = [
        .value(
            "max-concurrent-downloads", short: "j", "n",
            help: "Downloads at the same time (default \(BuiltInOptions.maxConcurrentDownloads))."
        ) {
            $0.maxConcurrentDownloads = try OptionValue.int($1)
        },
        .value(
            "max-connections-per-host", "n",
            help: "Downloads from one host at the same time (0, the default: no cap); the rest wait while other "
                + "hosts' downloads run."
        ) { $0.maxConnectionsPerHost = try OptionValue.int($1) },
        .value(
            "mirror", "url", repeatable: true,
            help: "Another URL of the same file (repeatable, one URL only); with -x/-s, mirrors serve parts in "
                + "parallel."
        ) { $0.mirrors.append($1) },
        .value("max-overall-download-limit", "speed", help: "Cap all downloads together, e.g. 10M (bytes per second).")
        {
            $0.maxOverallDownloadLimit = try OptionValue.speed($1)
        },
        .value(
            "bandwidth-schedule", "rules",
            help: "Overall limits by time, the first rule that matches winning: \"08:00-18:00 1M, sat-sun "
                + "10:00-22:00 5M, else unlimited\" (days optional; without else, the overall limit above applies)."
        ) { $0.bandwidthSchedule = try OptionValue.schedule($1) },
        .value(
            "stream-window", "n", hidden: true,
            help: "Downloads from one HTTP/2 host in flight at once as streams of its connection (for measuring)."
        ) { $0.streamWindow = try OptionValue.int($1) },
    ]
}
