import ArgumentParser

// MARK: - BasicOptions

/// What to download, where to, and what to say: the options most runs use.
struct BasicOptions: ParsableArguments {
    @Option(
        name: [.customShort("i", allowingJoined: true), .customLong("input-file")],
        help: ArgumentHelp(
            "Read downloads from this queue file: aria2's format or one URL a line; - for stdin; "
                + "an http(s) or ftp URL; may be gzip-compressed.", valueName: "file"))
    var inputFile: String?

    @Option(
        name: [.customShort("d", allowingJoined: true), .customLong("dir")],
        help: ArgumentHelp("Directory to save into (created if missing).", valueName: "dir"))
    var dir: String = "."

    @Option(
        name: [.customShort("o", allowingJoined: true), .customLong("out")],
        help: ArgumentHelp(
            "Save the one download as this path (any path: -o /tmp/x.iso, -o ~/f); - writes it "
                + "to stdout.", valueName: "file"))
    var out: String?

    @Flag(
        name: [.customShort("c"), .customLong("continue")],
        help: ArgumentHelp(
            "Continue a file of the same name another tool left unfinished: aria2's (from its .aria2 control "
                + "file), curl's or wget's (from its size)."))
    var continueExisting = false

    @Flag(
        name: .customLong("dry-run"),
        help: "Check that each URL answers and print its name and size; download nothing.")
    var dryRun = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Print each request's hops and response headers (passwords, cookies and tokens shown as ***).")
    var verbose = false

    @Option(
        name: .customLong("save-session"),
        help: ArgumentHelp("At the end, write the unfinished downloads to this queue file.", valueName: "file"))
    var saveSession: String?

    @Option(
        name: .customLong("max-download-result"),
        help: ArgumentHelp(
            "The full-screen queue keeps this many ended downloads (done, failed, cancelled); "
                + "the oldest leave it (their files stay).", valueName: "n"))
    var maxDownloadResult: Int = 1000

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Keep the queue's store here (default: $XDG_STATE_HOME/haul, else ~/.local/state/haul).",
            valueName: "dir"))
    var stateDirectory: String?

    /// Seconds between checkpoints (1 as the design says); tests shorten it.
    @Option(name: .customLong("checkpoint-interval"), help: .hidden)
    var checkpointInterval: Double = 1
}
