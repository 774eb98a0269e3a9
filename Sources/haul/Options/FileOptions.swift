import ArgumentParser
import HaulCore

// MARK: - FileOptions

/// What the saved files are checked against, and what happens to files already there.
struct FileOptions: ParsableArguments {
    @Option(
        name: .customLong("checksum"),
        help: ArgumentHelp(
            "Check the file's digest: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, "
                + "sha-512 (one download only).", valueName: "type=hex"),
        transform: OptionValue.of("checksum", \.checksum))
    var checksum: ExpectedChecksum?

    @Flag(name: .customLong("allow-overwrite"), help: "Overwrite an existing file instead of saving as NAME.1.EXT.")
    var allowOverwrite = false

    @Option(
        name: .customLong("auto-file-renaming"),
        help: ArgumentHelp(
            "Save as NAME.1.EXT when NAME.EXT exists (true, the default), or fail (false).",
            valueName: "bool"))
    var autoFileRenaming: Bool?

    @Flag(
        name: .customLong("conditional-get"),
        help: ArgumentHelp(
            "Download a file that is already there only if the server has a newer one (If-Modified-Since, "
                + "If-None-Match); a 304 keeps it."))
    var conditionalGet = false

    @Flag(
        name: [.customShort("R"), .customLong("remote-time")], help: "Give saved files the server's Last-Modified time."
    )
    var remoteTime = false

    @Option(
        name: .customLong("resumable-above"),
        help: ArgumentHelp(
            "Write a body longer than this (default 8M) to NAME.part as it arrives, resumable after a crash; "
                + "a shorter one goes to a file with no name until it is complete, so a crash leaves nothing "
                + "(0: every body resumable).", valueName: "size"),
        transform: OptionValue.of("resumable-above", \.resumableAbove))
    var resumableAbove: Int64?

    @Option(
        name: .customLong("max-queue-file-size"),
        help: ArgumentHelp(
            "Read at most this much of a queue file, after gzip (default 256M); a longer one is "
                + "an error.", valueName: "size"),
        transform: OptionValue.size(above: 0))
    var maxQueueFileSize: Int64?
}
