import HaulCore

// MARK: - FileOptions

/// What the saved files are checked against, and what happens to files already there.
struct FileOptions {
    var checksum: ExpectedChecksum?
    var maxQueueFileSize: Int64?

    static let options: [OptionSpec<FileOptions>] = [
        .value(
            "checksum", "type=hex",
            help: "Check the file's digest: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, sha-512 "
                + "(one download only)."
        ) { $0.checksum = try OptionValue.checksum($1) },
        .value(
            "max-queue-file-size", "size",
            help: "Read at most this much of a queue file, after gzip (default 256M); a longer one is an error."
        ) { $0.maxQueueFileSize = try OptionValue.size($1, above: 0) },
    ]
}
