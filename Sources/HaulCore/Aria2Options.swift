// MARK: - Aria2Options

/// The options aria2 takes on a queue file's option lines (its manual's "Input File" list), so
/// that a session aria2 saved (`--save-session`, `continue=true` in every entry of a `-c` run)
/// reads without an error. haul sets those it implements; the others are ignored with one
/// warning each.
enum Aria2Options {
    /// aria2's input-file options haul does not implement (yet), by name.
    static let notImplemented: Set<String> = [
        "all-proxy-passwd", "all-proxy-user", "allow-piece-length-change", "always-resume", "async-dns",
        "check-integrity", "content-disposition-default-utf8", "enable-http-keep-alive",
        "enable-http-pipelining", "enable-mmap", "enable-peer-exchange", "file-allocation", "force-save",
        "ftp-proxy", "ftp-proxy-passwd", "ftp-proxy-user", "ftp-reuse-connection",
        "ftp-type", "hash-check-only", "http-accept-gzip", "http-auth-challenge", "http-no-cache",
        "http-proxy-passwd", "http-proxy-user", "https-proxy-passwd", "https-proxy-user", "max-file-not-found",
        "max-mmap-limit", "max-resume-failure-tries", "max-upload-limit", "no-file-allocation-limit",
        "no-netrc", "no-want-digest-header", "parameterized-uri", "pause-metadata", "piece-length",
        "proxy-method", "realtime-chunk-checksum", "remove-control-file", "reuse-uri",
        "rpc-save-upload-metadata", "uri-selector", "use-head",
    ]

    /// aria2 options about BitTorrent or Metalink, which haul does not speak.
    static func isBitTorrentOrMetalink(_ name: String) -> Bool {
        guard name != "follow-metalink" else { return false }
        return bitTorrentPrefixes.contains { name.hasPrefix($0) } || bitTorrentNames.contains(name)
    }

    private static let bitTorrentPrefixes = [
        "bt-", "metalink-", "seed-", "follow-", "dht-", "enable-dht", "peer-", "torrent-",
    ]
    private static let bitTorrentNames: Set<String> = ["select-file", "index-out", "listen-port"]

    /// The warning for an option line haul does not use, or nil when it is one haul sets.
    static func warning(for name: String) -> String? {
        if DownloadHooks.isHookOption(name) { return DownloadHooks.refusal(of: name, in: "a queue file") + "; ignored" }
        if isBitTorrentOrMetalink(name) { return "option '\(name)' is for BitTorrent or Metalink; ignored" }
        if notImplemented.contains(name) { return "aria2's option '\(name)' is not one haul implements; ignored" }
        return nil
    }
}
