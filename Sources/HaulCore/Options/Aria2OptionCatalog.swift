// MARK: - Aria2OptionCatalog

/// Every option aria2 1.37 knows (its `OptionHandlerFactory`), with where aria2 takes it: in
/// `addUri`'s options and queue-file lines (`I`), in `changeOption` on an active download (`C`)
/// or a waiting one (`R`), in `changeGlobalOption` (`G`); an option with none of them is set at
/// start only. An option haul's tables declare (`DownloadOptionTable`, `QueueOptionTable`) says
/// its letters in its row; the rest are listed here. haul takes aria2's names as aria2 does: an option it implements is set (a bad value
/// refused), one it does not is accepted and ignored with one warning, as aria2 ignores an
/// option that does not apply where it is given.
public enum Aria2OptionCatalog {
    /// Where aria2 takes an option.
    public struct Scope: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The scope aria2's table writes as `letters` (`IGR`; none: at start only).
        ///
        /// - Parameter letters: Any of `I`, `C`, `R` and `G`; others are passed over.
        public init(letters: String) {
            var scope = Scope()
            for letter in letters {
                switch letter {
                case "I": scope.insert(.perDownload)
                case "C": scope.insert(.changesWhileActive)
                case "R": scope.insert(.changesWhileWaiting)
                case "G": scope.insert(.global)
                default: break
                }
            }
            self = scope
        }

        /// A download's own option: `addUri`'s options, a queue file's lines, `getOption`.
        public static let perDownload = Scope(rawValue: 1)
        /// Changed on an active download (`changeOption`).
        public static let changesWhileActive = Scope(rawValue: 2)
        /// Changed on a waiting or paused download (`changeOption`).
        public static let changesWhileWaiting = Scope(rawValue: 4)
        /// Changed for the whole daemon (`changeGlobalOption`).
        public static let global = Scope(rawValue: 8)
    }

    /// Every option aria2 has, by name.
    public static var names: [String] { scopes.keys.sorted() }

    /// Where aria2 takes `name`, or nil when aria2 has no option of that name.
    ///
    /// - Parameter name: An option's long name, without `--`.
    /// - Returns: Where aria2 takes it (per download, changed while active or waiting, global), or
    ///   nil for a name aria2 does not have.
    public static func scope(of name: String) -> Scope? {
        scopes[name]
    }

    /// The warning for an option `name` haul does not implement, whether aria2 has it or not
    /// (a queue file's line, an RPC client's option, a config.toml setting).
    ///
    /// - Parameter name: The option's name as given.
    /// - Returns: One line: unknown, BitTorrent-only, or aria2's with what haul does instead.
    public static func ignored(_ name: String) -> String {
        guard scope(of: name) != nil else { return "unknown option '\(name)'; ignored" }
        if isBitTorrent(name) {
            return "aria2's BitTorrent option '\(name)' is not one haul applies (libtorrent decides it); ignored"
        }
        let instead = haulsWay(instead: name).map { " (\($0))" } ?? ""
        return "aria2's option '\(name)' is not one haul implements\(instead); ignored"
    }

    /// What haul does instead of aria2's option `name`, for one it has no option for and does
    /// something else.
    ///
    /// - Parameter name: An aria2 option's name.
    /// - Returns: Such as `haul daemon` for `enable-rpc`, or nil when haul has nothing to say.
    public static func haulsWay(instead name: String) -> String? {
        insteads[name]
    }

    private static let insteads: [String: String] = [
        "enable-rpc": "aria2's RPC is served by `haul daemon`",
        "daemon": "run `haul daemon` in the background",
        "rpc-user": "`haul daemon` takes --rpc-secret",
        "rpc-passwd": "`haul daemon` takes --rpc-secret",
        "conf-path": "haul reads config.toml, see `haul --help`",
        "log": "`haul daemon` logs to stderr",
        "file-allocation": "haul writes a file as it arrives and keeps unfinished ones as NAME.part",
        "force-save": "haul keeps every unfinished download in its queue",
    ]

    /// Whether `name` is one of aria2's BitTorrent options.
    ///
    /// - Parameter name: An option's long name.
    /// - Returns: True for `bt-*`, `seed-*`, `dht-*` and aria2's other torrent options.
    public static func isBitTorrent(_ name: String) -> Bool {
        ["bt-", "seed-", "dht-", "enable-dht", "peer-", "torrent-"].contains { name.hasPrefix($0) }
            || ["select-file", "index-out", "listen-port", "enable-peer-exchange", "follow-torrent"].contains(name)
    }

    private static let scopes: [String: Scope] = {
        var scopes = listedHere
        for option in DownloadOptionTable.all { scopes[option.name] = option.aria2Scope ?? scopes[option.name] }
        for option in QueueOptionTable.all { scopes[option.name] = option.aria2Scope ?? scopes[option.name] }
        return scopes
    }()

    /// The options listed in `table`: aria2's that haul's tables do not declare.
    static let listedHere: [String: Scope] = {
        var scopes: [String: Scope] = [:]
        for item in table.split(whereSeparator: \.isWhitespace) {
            let parts = item.split(separator: ":", maxSplits: 1)
            scopes[String(parts[0])] = Scope(letters: String(parts.dropFirst().first ?? ""))
        }
        return scopes
    }()

    /// `name:FLAGS`, read from aria2 1.37's option table (a name alone: set at start only), for
    /// the options haul's tables do not declare.
    private static let table = """
        all-proxy-passwd:IGR all-proxy-user:IGR allow-piece-length-change:IGR always-resume:IGR
        async-dns:IGR async-dns-server auto-save-interval bt-detach-seed-only
        bt-enable-hook-after-hash-check:IGR bt-enable-lpd:IGR bt-exclude-tracker:IGR
        bt-external-ip:IGR bt-force-encryption:IGR bt-hash-check-seed:IGR bt-keep-alive-interval
        bt-load-saved-metadata:IGR bt-lpd-interface bt-max-open-files:G 
        bt-metadata-only:IGR bt-min-crypto-level:IGR bt-prioritize-piece:IGR
        bt-remove-unselected-file:ICGR bt-request-peer-speed-limit:ICGR bt-request-timeout
        bt-require-crypto:IGR bt-save-metadata:IGR  bt-stop-timeout:IGR
        bt-timeout  bt-tracker-connect-timeout:IGR bt-tracker-interval:IGR
        bt-tracker-timeout:IGR certificate check-integrity:IGR conf-path console-log-level
        content-disposition-default-utf8:IGR daemon deferred-input dht-entry-point dht-entry-point6
        dht-file-path dht-file-path6 dht-listen-addr dht-listen-addr6 dht-listen-port
        dht-message-timeout disable-ipv6 disk-cache dns-timeout download-result:G dscp
        enable-async-dns6:IGR enable-color  enable-dht6 enable-http-keep-alive:IGR
        enable-http-pipelining:IGR enable-mmap:IGR enable-peer-exchange:IGR enable-rpc event-poll
        file-allocation:IGR  force-save:ICGR force-sequential ftp-proxy:IGR
        ftp-proxy-passwd:IGR ftp-proxy-user:IGR ftp-reuse-connection:IGR ftp-type:IGR
        hash-check-only:IGR help http-accept-gzip:IGR http-auth-challenge:IGR http-no-cache:IGR
        http-proxy-passwd:IGR http-proxy-user:IGR https-proxy-passwd:IGR https-proxy-user:IGR
        human-readable index-out:IR input-file  keep-unfinished-download-result:G
         load-cookies log:G log-level:G max-download-result:G max-file-not-found:IGR
        max-http-pipelining max-mmap-limit:IGR 
        max-resume-failure-tries:IGR  metalink-base-uri:IG
        metalink-enable-unique-protocol:IGR metalink-file metalink-language:IGR
        metalink-location:IGR metalink-os:IGR metalink-preferred-protocol:IGR metalink-version:IGR
        min-tls-version multiple-interface netrc-path no-conf no-file-allocation-limit:IGR
        no-netrc:IGR no-want-digest-header:IGR on-bt-download-complete on-download-complete
        on-download-error on-download-pause on-download-start on-download-stop
        optimize-concurrent-downloads:G parameterized-uri:IG pause-metadata:IGR peer-agent
        peer-connection-timeout peer-id-prefix piece-length:IG private-key proxy-method:IGR quiet
        realtime-chunk-checksum:IGR remove-control-file:IGR reuse-uri:IGR rlimit-nofile
        rpc-allow-origin-all rpc-certificate rpc-listen-all rpc-listen-port rpc-max-request-size
        rpc-passwd rpc-private-key rpc-save-upload-metadata:IG rpc-secret rpc-secure rpc-user
        save-cookies:G save-not-found:ICGR save-session:G save-session-interval 
          select-least-used-host server-stat-if server-stat-of:G
        server-stat-timeout show-console-readout show-files socket-recv-buffer-size
        startup-idle-time stderr stop stop-with-process summary-interval torrent-file
        truncate-console-readout uri-selector:IGR use-head:IGR version
        """
}
