import HaulCore

// MARK: - FileOptions

/// What the saved files are checked against, and what happens to files already there.
struct FileOptions {
    var checksum: ExpectedChecksum?
    var allowOverwrite = false
    var autoFileRenaming: Bool?
    var conditionalGet = false
    var remoteTime = false
    var resumableAbove: Int64?
    var maxQueueFileSize: Int64?

    static let options: [OptionSpec<FileOptions>] = [
        .value(
            "checksum", "type=hex",
            help: "Check the file's digest: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, sha-512 "
                + "(one download only)."
        ) { $0.checksum = try OptionValue.download("checksum", $1, \.checksum) },
        .flag("allow-overwrite", help: "Overwrite an existing file instead of saving as NAME.1.EXT.") {
            $0.allowOverwrite = $1
        },
        .value(
            "auto-file-renaming", "bool",
            help: "Save as NAME.1.EXT when NAME.EXT exists (true, the default), or fail (false)."
        ) { $0.autoFileRenaming = try OptionValue.bool($1) },
        .flag(
            "conditional-get",
            help: "Download a file that is already there only if the server has a newer one (If-Modified-Since, "
                + "If-None-Match); a 304 keeps it."
        ) { $0.conditionalGet = $1 },
        .flag("remote-time", short: "R", help: "Give saved files the server's Last-Modified time.") {
            $0.remoteTime = $1
        },
        .value(
            "resumable-above", "size",
            help: "Write a body longer than this (default 8M) to NAME.part as it arrives, resumable after a crash; "
                + "a shorter one goes to a file with no name until it is complete, so a crash leaves nothing "
                + "(0: every body resumable)."
        ) { $0.resumableAbove = try OptionValue.download("resumable-above", $1, \.resumableAbove) },
        .value(
            "max-queue-file-size", "size",
            help: "Read at most this much of a queue file, after gzip (default 256M); a longer one is an error."
        ) { $0.maxQueueFileSize = try OptionValue.size($1, above: 0) },
    ]
}
