import HaulCore

// MARK: - ConnectionOptions

/// How many connections, to which mirrors, at what speed.
struct ConnectionOptions {
    var maxConcurrentDownloads = 5
    var maxConnectionPerServer: Int?
    var split: Int?
    var minSplitSize: Int64?
    var streamPieceSelector: SegmentPlanner.Order?
    var maxConnectionsPerHost = 0
    var mirrors: [String] = []
    var maxDownloadLimit: Int64?
    var maxOverallDownloadLimit: Int64?
    var bandwidthSchedule: BandwidthSchedule?
    var lowestSpeedLimit: Int64?
    var timeout = 60
    var connectTimeout: Int?
    var ftpPasv: Bool?

    static let options: [OptionSpec<ConnectionOptions>] = [
        .value("max-concurrent-downloads", short: "j", "n", help: "Downloads at the same time (default 5).") {
            $0.maxConcurrentDownloads = try OptionValue.int($1)
        },
        .value(
            "max-connection-per-server", short: "x", "n",
            help: "Connections to one server for one download, 1-64 (default 1: no splitting)."
        ) {
            $0.maxConnectionPerServer = try OptionValue.download(
                "max-connection-per-server", $1, \.maxConnectionPerServer)
        },
        .value("split", short: "s", "n", help: "Connections for one download (default 5, within -x).") {
            $0.split = try OptionValue.download("split", $1, \.split)
        },
        .value(
            "min-split-size", short: "k", "size",
            help: "No segment smaller than this is started, e.g. 1M (default 20M)."
        ) { $0.minSplitSize = try OptionValue.download("min-split-size", $1, \.minSplitSize) },
        .value(
            "stream-piece-selector", "order",
            help: "inorder: a split download is fetched front to back, a -k piece per connection, so it can be "
                + "played while it downloads (default: halves of the largest part)."
        ) { $0.streamPieceSelector = try OptionValue.download("stream-piece-selector", $1, \.streamPieceSelector) },
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
        .value("max-download-limit", "speed", help: "Cap each download's speed, e.g. 500K or 2M (bytes per second).") {
            $0.maxDownloadLimit = try OptionValue.download("max-download-limit", $1, \.maxDownloadLimit)
        },
        .value("max-overall-download-limit", "speed", help: "Cap all downloads together, e.g. 10M (bytes per second).")
        {
            $0.maxOverallDownloadLimit = try OptionValue.size($1)
        },
        .value(
            "bandwidth-schedule", "rules",
            help: "Overall limits by time, the first rule that matches winning: \"08:00-18:00 1M, sat-sun "
                + "10:00-22:00 5M, else unlimited\" (days optional; without else, the overall limit above applies)."
        ) { $0.bandwidthSchedule = try OptionValue.schedule($1) },
        .value(
            "lowest-speed-limit", "speed", help: "Retry a download slower than this (e.g. 10K) for --timeout seconds."
        ) {
            $0.lowestSpeedLimit = try OptionValue.download("lowest-speed-limit", $1, \.lowestSpeedLimit)
        },
        .value("timeout", short: "T", "seconds", help: "Seconds to wait for a connection or for data (default 60).") {
            $0.timeout = try OptionValue.download("timeout", $1, \.timeout)
        },
        .value(
            "connect-timeout", "seconds", help: "Seconds to wait for a connection to be made (default: --timeout)."
        ) { $0.connectTimeout = try OptionValue.download("connect-timeout", $1, \.connectTimeout) },
        .value(
            "ftp-pasv", "bool",
            help: "FTP in passive mode (true, the default), or active (false: the server connects back)."
        ) { $0.ftpPasv = try OptionValue.download("ftp-pasv", $1, \.ftpPasv) },
    ]
}
