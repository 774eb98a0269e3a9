import ArgumentParser
import HaulCore

// MARK: - ConnectionOptions

/// How many connections, to which mirrors, at what speed.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: [.customShort("j", allowingJoined: true), .customLong("max-concurrent-downloads")],
        help: ArgumentHelp("Downloads at the same time.", valueName: "n"))
    var maxConcurrentDownloads: Int = 5

    @Option(
        name: [.customShort("x", allowingJoined: true), .customLong("max-connection-per-server")],
        help: ArgumentHelp(
            "Connections to one server for one download, 1-64 (default 1: no splitting).",
            valueName: "n"),
        transform: OptionValue.of("max-connection-per-server", \.maxConnectionPerServer))
    var maxConnectionPerServer: Int?

    @Option(
        name: [.customShort("s", allowingJoined: true), .customLong("split")],
        help: ArgumentHelp("Connections for one download (default 5, within -x).", valueName: "n"),
        transform: OptionValue.of("split", \.split))
    var split: Int?

    @Option(
        name: [.customShort("k", allowingJoined: true), .customLong("min-split-size")],
        help: ArgumentHelp("No segment smaller than this is started, e.g. 1M (default 20M).", valueName: "size"),
        transform: OptionValue.of("min-split-size", \.minSplitSize))
    var minSplitSize: Int64?

    @Option(
        name: .customLong("stream-piece-selector"),
        help: ArgumentHelp(
            "inorder: a split download is fetched front to back, a -k piece per connection, so it "
                + "can be played while it downloads (default: halves of the largest part).",
            valueName: "order"),
        transform: OptionValue.of("stream-piece-selector", \.streamPieceSelector))
    var streamPieceSelector: SegmentPlanner.Order?

    @Option(
        name: .customLong("max-connections-per-host"),
        help: ArgumentHelp(
            "Downloads from one host at the same time (0: no cap); the rest wait while other hosts' "
                + "downloads run.", valueName: "n"))
    var maxConnectionsPerHost: Int = 0

    @Option(
        name: .customLong("mirror"),
        help: ArgumentHelp(
            "Another URL of the same file (repeatable, one URL only); with -x/-s, mirrors serve "
                + "parts in parallel.", valueName: "url"))
    var mirrors: [String] = []

    @Option(
        name: .customLong("max-download-limit"),
        help: ArgumentHelp("Cap each download's speed, e.g. 500K or 2M (bytes per second).", valueName: "speed"),
        transform: OptionValue.of("max-download-limit", \.maxDownloadLimit))
    var maxDownloadLimit: Int64?

    @Option(
        name: .customLong("max-overall-download-limit"),
        help: ArgumentHelp("Cap all downloads together, e.g. 10M (bytes per second).", valueName: "speed"),
        transform: OptionValue.size())
    var maxOverallDownloadLimit: Int64?

    @Option(
        name: .customLong("bandwidth-schedule"),
        help: ArgumentHelp(
            "Overall limits by time, the first rule that matches winning: \"08:00-18:00 1M, "
                + "sat-sun 10:00-22:00 5M, else unlimited\" (days optional; without else, the overall "
                + "limit above applies).", valueName: "rules"),
        transform: OptionValue.schedule)
    var bandwidthSchedule: BandwidthSchedule?

    @Option(
        name: .customLong("lowest-speed-limit"),
        help: ArgumentHelp("Retry a download slower than this (e.g. 10K) for --timeout seconds.", valueName: "speed"),
        transform: OptionValue.of("lowest-speed-limit", \.lowestSpeedLimit))
    var lowestSpeedLimit: Int64?

    @Option(
        name: [.customShort("T", allowingJoined: true), .customLong("timeout")],
        help: ArgumentHelp("Seconds to wait for a connection or for data.", valueName: "seconds"),
        transform: OptionValue.of("timeout", \.timeout))
    var timeout: Int = 60

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("Seconds to wait for a connection to be made (default: --timeout).", valueName: "seconds"),
        transform: OptionValue.of("connect-timeout", \.connectTimeout))
    var connectTimeout: Int?

    @Option(
        name: .customLong("ftp-pasv"),
        help: ArgumentHelp(
            "FTP in passive mode (true, the default), or active (false: the server connects back).",
            valueName: "bool"),
        transform: OptionValue.of("ftp-pasv", \.ftpPasv))
    var ftpPasv: Bool?
}
