// MARK: - BasicOptions

/// What to download, where to, and what to say: the options most runs use.
struct BasicOptions {
    var inputFile: String?
    var dir = "."
    var out: String?
    var quiet = false
    var verbose = false
    var saveSession: String?
    var maxDownloadResult = 1000
    var stateDirectory: String?
    /// Seconds between checkpoints (1 as the design says); tests shorten it.
    var checkpointInterval: Double = 1

    static let options: [OptionSpec<BasicOptions>] = [
        .value(
            "input-file", short: "i", "file",
            help: "Read downloads from this queue file: aria2's format or one URL a line; - for stdin; an http(s) "
                + "or ftp URL; may be gzip-compressed."
        ) { $0.inputFile = $1 },
        .value("dir", short: "d", "dir", help: "Directory to save into (created if missing; default: .).") {
            $0.dir = $1
        },
        .value(
            "out", short: "o", "file",
            help: "Save the one download as this path (any path: -o /tmp/x.iso, -o ~/f); - writes it to stdout."
        ) { $0.out = $1 },
        .flag("quiet", short: "q", help: "Print nothing but errors.") { $0.quiet = $1 },
        .flag(
            "verbose", short: "v",
            help: "Print each request's hops and response headers (passwords, cookies and tokens shown as ***)."
        ) { $0.verbose = $1 },
        .value("save-session", "file", help: "At the end, write the unfinished downloads to this queue file.") {
            $0.saveSession = $1
        },
        .value(
            "max-download-result", "n",
            help: "The full-screen queue keeps this many ended downloads (done, failed, cancelled; default 1000); "
                + "the oldest leave it (their files stay)."
        ) { $0.maxDownloadResult = try OptionValue.int($1) },
        .value(
            "state-dir", "dir",
            help: "Keep the queue's store here (default: $XDG_STATE_HOME/haul, else ~/.local/state/haul)."
        ) { $0.stateDirectory = $1 },
        .value("checkpoint-interval", "seconds", hidden: true, help: "Seconds between checkpoints.") {
            $0.checkpointInterval = try OptionValue.double($1)
        },
    ]
}
