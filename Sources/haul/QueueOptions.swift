import ArgumentParser
import Foundation
import HaulCore
import HaulNet

// MARK: - QueueOptions

/// What to download and how, named as aria2c names it: shared by `haul` (the full-screen UI) and
/// `haul get` (headless).
struct QueueOptions: ParsableArguments {
    @Argument(help: "The http, https, ftp or ftps URLs to download.")
    var urls: [String] = []

    @Option(name: [.customShort("i"), .customLong("input-file")], help: "Read downloads from this queue file (aria2 format or one URL a line; - for stdin; an http(s) or ftp URL; may be gzip-compressed).")
    var inputFile: String?

    @Option(name: [.customShort("o"), .customLong("out")], help: "Save to this file name, relative to --dir (one download only).")
    var out: String?

    @Option(name: [.customShort("d"), .customLong("dir")], help: "Directory to save into (created if missing).")
    var dir: String = "."

    @Option(name: [.customShort("j"), .customLong("max-concurrent-downloads")], help: "Downloads at the same time.")
    var maxConcurrentDownloads: Int = 5

    @Option(name: .customLong("max-connections-per-host"), help: "Downloads from one host at the same time (0: no cap); the rest wait while other hosts' downloads run.")
    var maxConnectionsPerHost: Int = 0

    @Option(name: [.customShort("s"), .customLong("split")], help: "Connections for one download (default 5, within -x).")
    var split: Int?

    @Option(name: [.customShort("x"), .customLong("max-connection-per-server")], help: "Connections to one server for one download, 1-64 (default 1: no splitting).")
    var maxConnectionPerServer: Int?

    @Option(name: [.customShort("k"), .customLong("min-split-size")], help: "No segment smaller than this is started, e.g. 1M (default 20M).")
    var minSplitSize: String?

    @Option(name: [.customShort("m"), .customLong("max-tries")], help: "Attempts per download (0: no limit).")
    var maxTries: Int = 5

    @Option(name: .customLong("retry-wait"), help: "Seconds between attempts (default: exponential backoff from 1 s).")
    var retryWait: Int?

    @Option(name: .customLong("mirror"), help: ArgumentHelp("Another URL of the same file (repeatable, one URL only); with -x/-s, mirrors serve parts in parallel.", valueName: "url"))
    var mirrors: [String] = []

    @Option(name: .customLong("checksum"), help: "Check the file's digest: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, sha-512 (one download only).")
    var checksum: String?

    @Flag(name: .customLong("allow-overwrite"), help: "Overwrite an existing file instead of saving as NAME.1.EXT.")
    var allowOverwrite = false

    @Option(name: .customLong("auto-file-renaming"), help: "Save as NAME.1.EXT when NAME.EXT exists (true, the default), or fail (false).")
    var autoFileRenaming: Bool?

    @Flag(name: .customLong("conditional-get"), help: "Download a file that is already there only if the server has a newer one (If-Modified-Since, If-None-Match); a 304 keeps it.")
    var conditionalGet = false

    @Flag(name: [.customShort("R"), .customLong("remote-time")], help: "Give saved files the server's Last-Modified time.")
    var remoteTime = false

    @Option(name: .customLong("max-download-limit"), help: "Cap each download's speed, e.g. 500K or 2M (bytes per second).")
    var maxDownloadLimit: String?

    @Option(name: .customLong("max-overall-download-limit"), help: "Cap all downloads together, e.g. 10M (bytes per second).")
    var maxOverallDownloadLimit: String?

    @Option(name: .customLong("lowest-speed-limit"), help: "Retry a download slower than this (e.g. 10K) for --timeout seconds.")
    var lowestSpeedLimit: String?

    @Option(name: [.customShort("T"), .customLong("timeout")], help: "Seconds to wait for a connection or for data.")
    var timeout: Int = 60

    @Option(name: .customLong("header"), help: "Add a request header, \"Name: value\" (repeatable).")
    var headers: [String] = []

    @Option(name: [.customShort("U"), .customLong("user-agent")], help: "The User-Agent to send.")
    var userAgent: String?

    @Option(name: .customLong("referer"), help: "The Referer to send.")
    var referer: String?

    @Option(name: .customLong("http-user"), help: "User name for HTTP authentication (Basic or Digest, as the server asks).")
    var httpUser: String?

    @Option(name: .customLong("http-passwd"), help: "Password for HTTP authentication (never shown or saved in a session file).")
    var httpPasswd: String?

    @Option(name: .customLong("all-proxy"), help: ArgumentHelp("Proxy for every download: host:port or a URL (http, https, socks4, socks4a, socks5, socks5h). Default: $all_proxy and friends.", valueName: "proxy"))
    var allProxy: String?

    @Option(name: .customLong("http-proxy"), help: ArgumentHelp("Proxy for http:// downloads (default: $http_proxy).", valueName: "proxy"))
    var httpProxy: String?

    @Option(name: .customLong("https-proxy"), help: ArgumentHelp("Proxy for https:// downloads (default: $https_proxy).", valueName: "proxy"))
    var httpsProxy: String?

    @Option(name: .customLong("no-proxy"), help: ArgumentHelp("Hosts to reach without a proxy, comma-separated; * for all (default: $no_proxy).", valueName: "hosts"))
    var noProxy: String?

    @Option(name: .customLong("ca-certificate"), help: "Trust the certificate authorities in this PEM file.")
    var caCertificate: String?

    @Option(name: .customLong("check-certificate"), help: "Verify TLS certificates (true or false).")
    var checkCertificate: Bool = true

    @Flag(name: .customLong("insecure"),
          help: "Do not verify TLS certificates (as --check-certificate=false; curl's -k).")
    var insecure = false

    @Flag(name: .customLong("netrc"), inversion: .prefixedNo,
          help: "Take logins for hosts without --http-user from the netrc file (~/.netrc unless --netrc-path).")
    var netrc = true

    @Option(name: .customLong("netrc-path"), help: "The netrc file to read instead of ~/.netrc.")
    var netrcPath: String?

    @Option(name: .customLong("load-cookies"), help: "Send the cookies of this Netscape-format file (as curl and wget write it).")
    var loadCookies: String?

    @Option(name: .customLong("save-cookies"), help: "At the end, write every cookie (loaded and received) to this file, mode 0600.")
    var saveCookies: String?

    @Option(name: .customLong("max-queue-file-size"),
            help: "Read at most this much of a queue file, after gzip (default 256M); a longer one is an error.")
    var maxQueueFileSize: String?

    @Option(name: .customLong("save-session"), help: "At the end, write the unfinished downloads to this queue file.")
    var saveSession: String?

    @Option(name: .customLong("state-dir"), help: "Keep the queue's store here (default: $XDG_STATE_HOME/haul, else ~/.local/state/haul).")
    var stateDirectory: String?

    /// Seconds between checkpoints (1 as the design says); tests shorten it.
    @Option(name: .customLong("checkpoint-interval"), help: .hidden)
    var checkpointInterval: Double = 1

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing but errors.")
    var quiet = false

    // MARK: - Validation

    func validate() throws {
        let single = urls.count == 1 && inputFile == nil
        if out != nil, !single { throw ValidationError("-o/--out names one file, so it takes exactly one URL and no -i") }
        if checksum != nil, !single { throw ValidationError("--checksum checks one file, so it takes exactly one URL and no -i") }
        if !mirrors.isEmpty, !single { throw ValidationError("--mirror names another URL of one file, so it takes exactly one URL and no -i") }
        if let out {
            var options = DownloadOptions()
            do {
                try options.set("out", out)
            } catch {
                throw ValidationError("-o: \(error)")
            }
        }
        for text in urls + mirrors {
            if let problem = QueueEntry.uriProblem(text) { throw ValidationError(problem) }
        }
        guard maxConcurrentDownloads >= 1 else { throw ValidationError("-j must be at least 1") }
        guard maxConnectionsPerHost >= 0 else { throw ValidationError("--max-connections-per-host must be 0 (no cap) or more") }
        _ = try defaults()
        _ = try overallLimit()
        for case let (flag, path?) in [("--load-cookies", loadCookies), ("--netrc-path", netrcPath), ("--ca-certificate", caCertificate)]
            where !FileManager.default.isReadableFile(atPath: path) {
            throw ValidationError("\(flag) '\(path)' is not a readable file")
        }
    }

    /// The command line's options as every download's defaults; the messages name the option.
    func defaults() throws -> DownloadOptions {
        var options = DownloadOptions()
        // Each option the command line set, as (queue-file name, value).
        let named: [(String, String?)] = [
            ("max-tries", String(maxTries)), ("timeout", String(timeout)), ("retry-wait", retryWait.map(String.init)),
            ("split", split.map(String.init)), ("max-connection-per-server", maxConnectionPerServer.map(String.init)),
            ("min-split-size", minSplitSize), ("max-download-limit", maxDownloadLimit), ("lowest-speed-limit", lowestSpeedLimit),
            ("user-agent", userAgent), ("referer", referer), ("allow-overwrite", allowOverwrite ? "true" : nil),
            ("http-user", httpUser), ("http-passwd", httpPasswd), ("all-proxy", allProxy),
            ("http-proxy", httpProxy), ("https-proxy", httpsProxy), ("no-proxy", noProxy),
            ("auto-file-renaming", autoFileRenaming.map(String.init)), ("conditional-get", conditionalGet ? "true" : nil),
            ("remote-time", remoteTime ? "true" : nil),
        ]
        var pairs = named.compactMap { name, value in value.map { (name, $0) } }
        pairs += headers.map { ("header", $0) }
        for (name, value) in pairs {
            do {
                try options.set(name, value)
            } catch {
                // curl's -k turns certificate checks off; here, as in aria2, it is a size.
                let curlHabit = name == "min-split-size" && value.contains("://")
                    ? " (-k is --min-split-size here, as in aria2; curl's -k is --check-certificate=false, "
                        + "or --insecure)" : ""
                throw ValidationError("--\(name): \(error)\(curlHabit)")
            }
        }
        return options
    }

    func overallLimit() throws -> Int64? {
        guard let maxOverallDownloadLimit else { return nil }
        do {
            return try ByteCount.parse(maxOverallDownloadLimit)
        } catch {
            throw ValidationError("--max-overall-download-limit: \(error)")
        }
    }

    /// The longest queue-file text to read (`--max-queue-file-size`, else 256 MiB).
    func queueFileLimit() throws -> Int64 {
        guard let maxQueueFileSize else { return InputFile.defaultLimit }
        do {
            let limit = try ByteCount.parse(maxQueueFileSize)
            guard limit > 0 else { throw ValidationError("--max-queue-file-size: must be more than 0") }
            return limit
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--max-queue-file-size: \(error)")
        }
    }

    // MARK: - Making the queue

    /// The queue's configuration from these options; `warn` hears of a netrc file others can read.
    func configuration(warn: (String) -> Void) throws -> DownloadQueue.Configuration {
        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = maxConcurrentDownloads
        configuration.maxConnectionsPerHost = maxConnectionsPerHost
        configuration.defaults = try defaults()
        configuration.directory = dir
        configuration.tls = TLSOptions(verifyPeer: checkCertificate && !insecure, caFile: caCertificate)
        if netrc {
            let path = netrcPath ?? Netrc.defaultPath
            do {
                configuration.netrc = try Netrc.load(path: path)
                if configuration.netrc != nil, Netrc.isShared(path: path) {
                    warn("warning: \(path) can be read by other users; protect its passwords with chmod 600 \(path)")
                }
            } catch {
                throw ValidationError("\(error)")
            }
        }
        return configuration
    }

    // MARK: - Cookies

    /// Turns cookies on for the run when --load-cookies or --save-cookies asks (all downloads
    /// share them); `report` hears how many were loaded (unless --quiet) or that none were.
    func startCookies(report: (String) -> Void) throws {
        guard loadCookies != nil || saveCookies != nil else { return }
        do {
            let count = try ConnectionEngine.shared.useCookies(loadingFrom: loadCookies.map { [$0] } ?? [])
            if let loadCookies {
                if count == 0 {
                    report("warning: \(loadCookies) holds no cookie (Netscape format: 7 tab-separated fields a line)")
                } else if !quiet {
                    report("\(loadCookies): \(count) cookie\(count == 1 ? "" : "s") loaded")
                }
            }
        } catch {
            throw ValidationError("--load-cookies: \(error)")
        }
    }

    /// Writes the run's cookies to the --save-cookies file, if one was named; a failure goes to
    /// `report` and is returned as false.
    func keepCookies(report: (String) -> Void) -> Bool {
        guard let saveCookies else { return true }
        do {
            try ConnectionEngine.shared.saveCookies(to: saveCookies)
            return true
        } catch {
            report("haul: --save-cookies: \(error)")
            return false
        }
    }

    /// The state directory to use.
    var stateDirectoryPath: String {
        stateDirectory ?? StateDirectory.defaultPath()
    }

    /// The downloads the URLs and the queue file ask for; a queue file's problems and summary
    /// go to `report`. Returns the entries and how many lines were rejected.
    func entries(report: (String) -> Void) throws -> (entries: [QueueEntry], rejected: Int) {
        var entries = urls.map { QueueEntry(uris: [$0]) }
        var rejected = 0
        if let inputFile {
            let result: InputFile.ReadResult
            let remote = RemoteQueueFile.url(in: inputFile)
            let limit = try queueFileLimit()
            do {
                if let remote {
                    result = try RemoteQueueFile.standard(limit: limit, warn: report).read(remote)
                } else {
                    result = try InputFile.read(contentsOf: inputFile, limit: limit)
                }
            } catch {
                throw ValidationError(error.description)
            }
            for problem in result.problems { report(problem.description) }
            if !result.problems.isEmpty || !quiet {
                report("\(remote?.redactedString ?? (inputFile == "-" ? "<stdin>" : inputFile)): \(result.summary)")
            }
            rejected = result.rejectedLines
            entries += result.entries
        }
        if entries.count == 1 {
            entries[0].uris += mirrors
            if let out { try entries[0].options.set("out", out) }
            if let checksum {
                do {
                    try entries[0].options.set("checksum", checksum)
                } catch {
                    throw ValidationError("--checksum: \(error)")
                }
            }
        }
        return (entries, rejected)
    }
}
