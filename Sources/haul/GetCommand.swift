import ArgumentParser
import Foundation
import HaulCore
import HaulNet

// MARK: - GetCommand

/// `haul get URL…` / `haul get -i FILE`: downloads without the full-screen UI, as curl and
/// aria2c do, printing progress to stderr, and exits when every download has ended.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs or a queue file without the full-screen UI; progress goes to stderr.",
        discussion: """
        The queue is kept in the state directory, checkpointed every second: run the same \
        command again after an interruption (even kill -9) and each download continues where \
        its last checkpoint left it. With no URL and no -i, haul get continues every download \
        that was queued or running when the last run ended. Entries with pause=true are queued \
        but not run (--save-session keeps them). Exit status: 0 when every download that ran \
        completed, 1 when any failed, a queue-file line was rejected or the store could not be \
        used, 64 for a usage error.
        """
    )

    @Argument(help: "The http, https, ftp or ftps URLs to download.")
    var urls: [String] = []

    @Option(name: [.customShort("i"), .customLong("input-file")], help: "Read downloads from this queue file (aria2 format or one URL a line; - for stdin; may be gzip-compressed).")
    var inputFile: String?

    @Option(name: [.customShort("o"), .customLong("out")], help: "Save to this file name, relative to --dir (one download only).")
    var out: String?

    @Option(name: [.customShort("d"), .customLong("dir")], help: "Directory to save into (created if missing).")
    var dir: String = "."

    @Option(name: [.customShort("j"), .customLong("max-concurrent-downloads")], help: "Downloads at the same time.")
    var maxConcurrentDownloads: Int = 5

    @Option(name: .customLong("max-connections-per-host"), help: "Downloads from one host at the same time (0: no cap); the rest wait while other hosts' downloads run.")
    var maxConnectionsPerHost: Int = 0

    @Option(name: [.customShort("m"), .customLong("max-tries")], help: "Attempts per download (0: no limit).")
    var maxTries: Int = 5

    @Option(name: .customLong("retry-wait"), help: "Seconds between attempts (default: exponential backoff from 1 s).")
    var retryWait: Int?

    @Option(name: .customLong("checksum"), help: "Check the file's digest: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, sha-512 (one download only).")
    var checksum: String?

    @Flag(name: .customLong("allow-overwrite"), help: "Overwrite an existing file instead of saving as NAME.1.EXT.")
    var allowOverwrite = false

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

    @Option(name: .customLong("ca-certificate"), help: "Trust the certificate authorities in this PEM file.")
    var caCertificate: String?

    @Option(name: .customLong("check-certificate"), help: "Verify TLS certificates (true or false).")
    var checkCertificate: Bool = true

    @Option(name: .customLong("save-session"), help: "At the end, write the unfinished downloads to this queue file.")
    var saveSession: String?

    @Option(name: .customLong("state-dir"), help: "Keep the queue's store here (default: $XDG_STATE_HOME/haul, else ~/.local/state/haul).")
    var stateDirectory: String?

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing but errors.")
    var quiet = false

    // MARK: - Validation

    func validate() throws {
        let single = urls.count == 1 && inputFile == nil
        if out != nil, !single { throw ValidationError("-o/--out names one file, so it takes exactly one URL and no -i") }
        if checksum != nil, !single { throw ValidationError("--checksum checks one file, so it takes exactly one URL and no -i") }
        if let out {
            var options = DownloadOptions()
            do {
                try options.set("out", out)
            } catch {
                throw ValidationError("-o: \(error)")
            }
        }
        for text in urls {
            if let problem = QueueEntry.uriProblem(text) { throw ValidationError(problem) }
        }
        guard maxConcurrentDownloads >= 1 else { throw ValidationError("-j must be at least 1") }
        guard maxConnectionsPerHost >= 0 else { throw ValidationError("--max-connections-per-host must be 0 (no cap) or more") }
        _ = try defaults()
        _ = try overallLimit()
        if let caCertificate, !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw ValidationError("--ca-certificate '\(caCertificate)' is not a readable file")
        }
    }

    /// The command line's options as every download's defaults; the messages name the option.
    private func defaults() throws -> DownloadOptions {
        var options = DownloadOptions()
        var pairs: [(String, String)] = [("max-tries", String(maxTries)), ("timeout", String(timeout))]
        if let retryWait { pairs.append(("retry-wait", String(retryWait))) }
        if let maxDownloadLimit { pairs.append(("max-download-limit", maxDownloadLimit)) }
        if let lowestSpeedLimit { pairs.append(("lowest-speed-limit", lowestSpeedLimit)) }
        if let userAgent { pairs.append(("user-agent", userAgent)) }
        if let referer { pairs.append(("referer", referer)) }
        if allowOverwrite { pairs.append(("allow-overwrite", "true")) }
        pairs += headers.map { ("header", $0) }
        for (name, value) in pairs {
            do {
                try options.set(name, value)
            } catch {
                throw ValidationError("--\(name): \(error)")
            }
        }
        return options
    }

    private func overallLimit() throws -> Int64? {
        guard let maxOverallDownloadLimit else { return nil }
        do {
            return try ByteCount.parse(maxOverallDownloadLimit)
        } catch {
            throw ValidationError("--max-overall-download-limit: \(error)")
        }
    }

    // MARK: - Running

    func run() throws {
        // A file-size limit (ulimit -f) must fail the download with EFBIG, not kill haul.
        signal(SIGXFSZ, SIG_IGN)
        var entries = urls.map { QueueEntry(uris: [$0]) }
        var rejected = 0
        if let inputFile {
            let result: InputFile.ReadResult
            do {
                result = try InputFile.read(contentsOf: inputFile)
            } catch {
                throw ValidationError(error.description)
            }
            for problem in result.problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
            if !result.problems.isEmpty || !quiet {
                FileHandle.standardError.write(Data("\(inputFile == "-" ? "<stdin>" : inputFile): \(result.summary)\n".utf8))
            }
            rejected = result.rejectedLines
            entries += result.entries
        }
        if entries.count == 1 {
            if let out { try entries[0].options.set("out", out) }
            if let checksum {
                do {
                    try entries[0].options.set("checksum", checksum)
                } catch {
                    throw ValidationError("--checksum: \(error)")
                }
            }
        }
        let continuing = urls.isEmpty && inputFile == nil
        guard continuing || !entries.isEmpty else { throw ExitCode(1) }

        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = maxConcurrentDownloads
        configuration.maxConnectionsPerHost = maxConnectionsPerHost
        configuration.defaults = try defaults()
        configuration.directory = dir
        configuration.tls = TLSOptions(verifyPeer: checkCertificate, caFile: caCertificate)
        let reporter = ProgressReporter(quiet: quiet)
        let stored: StoredQueue
        do {
            stored = try StoredQueue(stateDirectory: stateDirectory ?? StateDirectory.defaultPath(),
                                     configuration: configuration,
                                     onStoreError: { reporter.report("\($0)") }, onEvent: { reporter.handle($0) })
        } catch {
            FileHandle.standardError.write(Data("haul: \(error)\n".utf8))
            throw ExitCode(1)
        }
        for problem in stored.problems { reporter.report(problem) }
        let queue = stored.queue
        queue.setMaxOverallDownloadLimit(try overallLimit())
        let ids: [String]
        if continuing {
            ids = stored.continueUnfinished()
            guard !ids.isEmpty else {
                throw ValidationError("nothing to continue in \(stored.store.path): give URLs or a queue file with -i FILE")
            }
            if !quiet { reporter.report("continuing \(ids.count) unfinished download\(ids.count == 1 ? "" : "s")") }
        } else {
            let (added, continued) = stored.continueOrAdd(entries)
            ids = added
            if continued > 0, !quiet {
                reporter.report("continuing \(continued) download\(continued == 1 ? "" : "s") from an earlier run")
            }
        }
        entries = []
        let interruptHandlers = stopOnInterrupt(stored)
        let paused = ids.filter { queue.download($0)?.state == .paused }.count
        let running = ids.count - paused
        if paused > 0, !quiet {
            reporter.report("\(paused) paused \(paused == 1 ? "entry is" : "entries are") queued but not run")
        }
        let completed = withExtendedLifetime(interruptHandlers) { reporter.waitUntilDone(count: running) }
        // Finished downloads leave the stored queue; the store's history keeps them.
        queue.remove(queue.downloads.filter { $0.state == .complete }.map(\.id))
        stored.flush()

        if let saveSession {
            let unfinished = queue.downloads.filter { $0.state != .complete }.map { download in
                var options = download.options
                options.gid = download.id
                return QueueEntry(uris: download.uris, options: options)
            }
            do {
                try InputFile.save(unfinished, to: saveSession, includingSecrets: false)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(1)
            }
        }
        if completed < running || rejected > 0 { throw ExitCode(1) }
    }

    /// On SIGINT or SIGTERM: writes the queue's last progress to the store, says how to go on,
    /// and exits 130.
    private func stopOnInterrupt(_ stored: StoredQueue) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { (signalNumber: Int32) -> any DispatchSourceSignal in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                stored.flush()
                FileHandle.standardError.write(Data("\ninterrupted; run haul get again to continue\n".utf8))
                Foundation.exit(130)
            }
            source.resume()
            return source
        }
    }
}
