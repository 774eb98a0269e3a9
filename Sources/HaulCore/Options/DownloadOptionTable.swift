// MARK: - DownloadOptionTable

/// Every option a download can have, by aria2's name, in the order queue files and the store
/// write them. The one place an option is declared (see `DownloadOption`); aria2's options haul
/// does not implement are in `Aria2OptionCatalog`.
public enum DownloadOptionTable {
    public typealias Values = DownloadOptions.Values

    /// The names other code asks for (each spelled here once).
    public enum Name {
        public static let split = "split"
        public static let minSplitSize = "min-split-size"
        public static let maxDownloadLimit = "max-download-limit"
    }

    /// Every option, in writing order.
    public static let all: [DownloadOption] =
        [
            .single(
                "dir", \Values.dir, .nonEmpty, change: .untilNamed, settableBy: .networkClient, risk: .namesFolders,
                trustReason: Reason.networkNames, aria2: "IGR", help: "The directory the file is saved in."),
            .single(
                "out", \Values.out, .relativeName, change: .untilNamed, settableBy: .remoteList, risk: .namesFolders,
                trustReason: Reason.networkNames + "; a list loaded by URL's is made one plain name in your folder "
                    + "by the name gate",
                aria2: "IR", help: "The file's name, inside dir."),
            .single(
                Name.split, \Values.split, .integer(1...1024), builtIn: BuiltInOptions.split, topic: .connections,
                short: "s",
                shownDefault: "automatic (--split-mode auto); 5 once -s or -x is given",
                aria2: "IGR", help: "Connections for one download (within -x); giving it turns automatic splitting off."
            ),
            .single(
                "max-connection-per-server", \Values.maxConnectionPerServer, .integer(1...64),
                builtIn: BuiltInOptions.maxConnectionPerServer, topic: .connections, short: "x",
                shownDefault:
                    "automatic, 1 then 4 then up to 16 while each step pays (--split-mode auto); 1 once -s is "
                    + "given",
                aria2: "IGR",
                help: "Connections to one server for one download, 1-64 (1: no splitting); giving it turns automatic "
                    + "splitting off."),
            .single(
                Name.minSplitSize, \Values.minSplitSize, .size(atLeast: 1 << 20), builtIn: BuiltInOptions.minSplitSize,
                topic: .connections, short: "k", shownDefault: "1M while splitting automatically, 20M with -s or -x",
                aria2: "IGR", help: "No segment smaller than this is started, e.g. 1M."),
            .single(
                "split-mode", \Values.splitMode, .oneOf("mode"), builtIn: .auto, topic: .connections,
                help: "auto: a large file starts on one connection, then 4, then 16 a server, while each step pays "
                    + "(under --\(Name.maxDownloadLimit), until the limit is reached); fixed: -s and -x as given. Giving -s "
                    + "or -x means fixed."),
            .single(
                Name.maxDownloadLimit, \Values.maxDownloadLimit, .speed, builtIn: SpeedLimit.none,
                change: .live, topic: .connections,
                aria2: "ICGR", help: "Cap each download's speed, e.g. 500K or 2M (bytes per second; 0: no cap)."),
            .single(
                "checksum", \Values.checksum, .parsed("type=hex"),
                aria2: "IR", help: "The file's digest, TYPE=HEX (md5, sha-1, sha-224, sha-256, sha-384, sha-512)."),
            .single(
                "max-tries", \Values.maxTries, .integer(0...Int(Int32.max)), builtIn: BuiltInOptions.maxTries,
                topic: .retries, short: "m",
                aria2: "IGR",
                help: "Attempts per download (0: no limit). A failure that cannot heal (404, a refused login, a full "
                    + "disk) is not retried."),
            .single(
                "retry-wait", \Values.retryWait, .integer(0...600), topic: .retries, valueName: "seconds",
                aria2: "IGR", help: "Seconds between attempts (default: exponential backoff from 1 s)."),
            .single(
                "timeout", \Values.timeout, .integer(1...600), builtIn: BuiltInOptions.timeout, topic: .connections,
                short: "t", valueName: "seconds", aria2: "IGR", help: "Seconds to wait for a connection or for data."),
            .single(
                "connect-timeout", \Values.connectTimeout, .integer(1...600), topic: .connections, valueName: "seconds",
                aria2: "IGR", help: "Seconds to wait for a connection to be made (default: --timeout)."),
            .single(
                "lowest-speed-limit", \Values.lowestSpeedLimit, .speed,
                builtIn: BuiltInOptions.lowestSpeedLimit, topic: .connections,
                aria2: "IGR", help: "Retry a download slower than this (e.g. 10K) for --timeout seconds (0: never)."),
            .single(
                "resumable-above", \Values.resumableAbove, .size(atLeast: 0), builtIn: BuiltInOptions.resumableAbove,
                topic: .files,
                help:
                    "Write a body longer than this to NAME.part as it arrives, resumable after a crash; a shorter one "
                    + "goes to a file with no name until it is complete, so a crash leaves nothing (0: every body "
                    + "resumable)."),
            .headers(topic: .http, aria2: "IGR", help: "Add a request header, \"Name: value\" (repeatable)."),
            .single(
                "user-agent", \Values.userAgent, .text, builtIn: BuiltInOptions.userAgent, topic: .http, short: "U",
                valueName: "agent", aria2: "IGR", help: "The User-Agent to send."),
            .single("referer", \Values.referer, .url, topic: .http, aria2: "IGR", help: "The Referer to send."),
            .single(
                "http-user", \Values.httpUser, .text, topic: .http, valueName: "user",
                aria2: "IGR", help: "User name for HTTP authentication (Basic or Digest, as the server asks)."),
            .single(
                "http-passwd", \Values.httpPasswd, .text, secret: true, topic: .http, valueName: "password",
                aria2: "IGR", help: "Password for HTTP authentication (never shown or saved in a session file)."),
            .single(
                "ftp-user", \Values.ftpUser, .text, topic: .http, valueName: "user",
                aria2: "IGR",
                help: "User name for FTP and FTPS logins (default: the URL's, a netrc entry, or anonymous)."),
            .single(
                "ftp-passwd", \Values.ftpPasswd, .text, secret: true, topic: .http, valueName: "password",
                aria2: "IGR", help: "Password for FTP and FTPS logins (never shown or saved in a session file)."),
            .single(
                "all-proxy", \Values.allProxy, .proxy, topic: .proxy, settableBy: .queueFile, risk: .movesTraffic,
                trustReason: Reason.yourFile,
                aria2: "IGR",
                help: "Proxy for every download: host:port or a URL (http, https, socks4, socks4a, socks5, socks5h). "
                    + "Default: $all_proxy and friends."),
            .single(
                "http-proxy", \Values.httpProxy, .proxy, topic: .proxy, settableBy: .queueFile, risk: .movesTraffic,
                trustReason: Reason.yourFile,
                aria2: "IGR", help: "Proxy for http:// downloads (default: $http_proxy)."),
            .single(
                "https-proxy", \Values.httpsProxy, .proxy, topic: .proxy, settableBy: .queueFile, risk: .movesTraffic,
                trustReason: Reason.yourFile,
                aria2: "IGR", help: "Proxy for https:// downloads (default: $https_proxy)."),
            .single(
                "no-proxy", \Values.noProxy, .text, topic: .proxy, valueName: "hosts", settableBy: .queueFile,
                risk: .movesTraffic, trustReason: Reason.yourFile,
                aria2: "IGR", help: "Hosts to reach without a proxy, comma-separated; * for all (default: $no_proxy)."),
            .single("pause", \Values.pause, .boolean, builtIn: false, aria2: "I", help: "Added paused."),
            .single(
                "allow-overwrite", \Values.allowOverwrite, .boolean, builtIn: false, topic: .files, settableBy: .owner,
                risk: .overwritesFiles,
                aria2: "IGR", help: "Overwrite an existing file instead of saving as NAME.1.EXT."),
            .single(
                "auto-file-renaming", \Values.autoFileRenaming, .boolean, builtIn: true, topic: .files,
                risk: .overwritesFiles,
                trustReason: "false makes a download whose name is taken fail; it never replaces the file",
                aria2: "IGR", help: "Save as NAME.1.EXT when NAME.EXT exists (true), or fail (false)."),
            .single(
                "conditional-get", \Values.conditionalGet, .boolean, builtIn: false, topic: .files,
                settableBy: .queueFile,
                risk: .overwritesFiles, trustReason: Reason.yourFile,
                aria2: "IGR",
                help: "Download a file that is already there only if the server has a newer one (If-Modified-Since, "
                    + "If-None-Match); a 304 keeps it."),
            .single(
                "continue", \Values.continueExisting, .boolean, builtIn: false, topic: .basic, short: "c",
                settableBy: .queueFile, risk: .overwritesFiles, trustReason: Reason.yourFile,
                aria2: "IGR",
                help: "Continue a file of the same name another tool left unfinished: aria2's (from its .aria2 control "
                    + "file), curl's or wget's (from its size)."),
            .single(
                "dry-run", \Values.dryRun, .boolean, builtIn: false, topic: .basic,
                aria2: "IG", help: "Check that each URL answers and print its name and size; download nothing."),
            .single(
                "remote-time", \Values.remoteTime, .boolean, builtIn: false, topic: .files, short: "R",
                aria2: "IGR", help: "Give saved files the server's Last-Modified time."),
            .single(
                "ftp-pasv", \Values.ftpPasv, .boolean, builtIn: true, topic: .connections,
                aria2: "IGR", help: "FTP in passive mode (true), or active (false: the server connects back)."),
            .single(
                "stream-piece-selector", \Values.streamPieceSelector, .oneOf("order"), builtIn: .spread,
                topic: .connections,
                aria2: "IGR",
                help: "How a split download's connections share the file: default (each takes half of the largest part "
                    + "left) or inorder (front to back, a -k piece each, so it can be played while it downloads)."),
            .single(
                "priority", \Values.priority, .integer(-100...100),
                help: "Queued ahead of the waiting downloads of lower priority (-100 to 100, 0 when unset)."),
            .single(
                "piece-hashes", \Values.pieceHashes, .parsed("hashes"), help: "Each piece's digest (from a Metalink)."),
            .single(
                "follow-metalink", \Values.followMetalink, .followMetalink, builtIn: true, topic: .metalink,
                aria2: "IGR",
                help: "Download the files of an answer that is a Metalink (application/metalink4+xml, or saved as "
                    + ".meta4; true), or save it as it is (false)."),
            .single(
                "ssh-private-key", \Values.sshPrivateKey, .text, topic: .sftp, valueName: "file",
                settableBy: .queueFile,
                risk: .namesLocalFiles, trustReason: Reason.yourFile,
                help: "Log in to SFTP servers with this private key (OpenSSH's format)."),
            .single(
                "ssh-known-hosts", \Values.sshKnownHosts, .text, topic: .sftp, valueName: "file",
                settableBy: .queueFile,
                risk: .namesLocalFiles, trustReason: Reason.yourFile,
                help: "The SFTP servers' host keys, OpenSSH's format (default ~/.ssh/known_hosts); an unknown key is "
                    + "refused."),
            .single(
                "ssh-host-key-md", \Values.sshHostKeyMD, .parsed("type=digest"), topic: .sftp, settableBy: .queueFile,
                risk: .weakensChecks, trustReason: Reason.yourFile,
                aria2: "IGR",
                help: "Pin the SFTP server's host key by its digest instead (aria2's: sha-256=HEX, or md5=HEX)."),
            .single(
                "ca-certificate", \Values.caCertificate, .nonEmpty, topic: .tls, valueName: "file",
                settableBy: .queueFile,
                risk: .namesLocalFiles, trustReason: Reason.yourFile,
                aria2: "", help: "Trust the certificate authorities in this PEM file."),
            .single(
                "check-certificate", \Values.checkCertificate, .boolean, builtIn: true, topic: .tls,
                settableBy: .queueFile,
                risk: .weakensChecks, trustReason: Reason.yourFile,
                aria2: "", help: "Verify TLS certificates (true), or not (false)."),
            .single(
                "gid", \Values.gid, .parsed("gid"), change: .never, aria2: "I",
                help: "The download's id, 16 hex digits."),
        ] + bitTorrent

    /// Why sources below the owner may set an option that has a risk.
    private enum Reason {
        static let yourFile = "a queue file you name by its path is yours, and aria2's sessions carry it"
        static let networkNames = "a network client's names stay below --rpc-allowed-dir"
    }

    /// The option named `name` (aria2's name), or nil when haul has none.
    ///
    /// - Parameter name: A long option name, without `--` (`max-connection-per-server`).
    /// - Returns: The option's row: its help, value, built-in value and how it reaches a download.
    public static func option(named name: String) -> DownloadOption? {
        byName[name]
    }

    private static let byName: [String: DownloadOption] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}

extension OptionKind where Value == Bool {
    /// `follow-metalink`: a boolean, aria2's `mem` (follow in memory) taken as true.
    static var followMetalink: OptionKind {
        OptionKind(
            "bool",
            parse: { text throws(OptionError) in
                if text == "mem" { return true }
                return try DownloadOptions.Values.boolean(text)
            },
            format: { value, _ in String(value) }, choices: ["true", "false"])
    }
}
