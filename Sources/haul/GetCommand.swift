import Foundation
import HaulCore
import HaulNet
import HaulRPC
import HaulText
import Synchronization

// MARK: - GetCommand

/// `haul get URL…` / `haul get -i FILE`: downloads without the full-screen UI, as curl and
/// aria2c do, printing progress to stderr, and exits when every download has ended.
struct GetCommand: HaulCommand {
    static let about = CommandAbout(
        name: "get",
        abstract: "Download URLs or a queue file without the full-screen UI; progress goes to stderr.",
        discussion: """
            The queue is kept in the state directory, checkpointed every second: run the same \
            command again after an interruption (even kill -9) and each download continues where \
            its last checkpoint left it. With no URL and no -i, haul get continues every download \
            that was queued or running when the last run ended. Entries with pause=true are queued \
            but not run (--save-session keeps them). Exit status, as aria2c's: 0 when every \
            download that ran completed; when one failed, the code of the last failure (haul --help \
            and man haul list them: 3 not found, 9 disk full, 19 name not resolved, 24 login \
            refused…); 1 when a queue-file line was rejected or the store could not be used.
            """)

    static let groups = queueGroups

    var options = QueueOptions()

    func validate() throws {
        try options.validate()
    }

    // MARK: - Running

    func run() throws {
        try GetCommand.download(options)
    }

    /// Runs the queue `options` describe to its end without the full-screen UI, in phases: what
    /// needs no queue of its own (a hand-off, `-o -`, a dry run), else the run's start
    /// (`GetRun.start`), its downloads queued, their end waited for, and the run's end.
    static func download(_ options: QueueOptions) throws {
        var options = options
        try options.askForPassword()
        // A file-size limit (ulimit -f) must fail the download with EFBIG, not kill haul.
        signal(SIGXFSZ, SIG_IGN)
        let reporter = ProgressReporter(
            .init(
                quiet: options.basic.quiet, verbose: options.basic.verbose,
                dryRun: options.download.dryRun == true))
        if try runWithoutQueue(options, reporter: reporter) { return }
        let (run, entries) = try GetRun.start(options, reporter: reporter)
        defer { run.scheduler?.stop() }
        let (ids, alreadySaved) = try run.queueDownloads(consume entries)
        let ended = run.waitForDownloads(ids, alreadySaved: alreadySaved)
        try run.end(ended)
    }

    /// Runs what needs no queue of its own: downloads handed to a running haul, `-o -`, or a dry
    /// run. False when none applies.
    private static func runWithoutQueue(_ options: QueueOptions, reporter: ProgressReporter) throws -> Bool {
        let continuing = !options.namesDownloads
        let toStandardOutput = !continuing && options.basic.out == QueueOptions.standardOutput
        // With -v the requests are shown, so they are made here: a running haul would make them
        // where this terminal cannot see them.
        let runningHaul =
            continuing || toStandardOutput || options.download.dryRun == true || options.basic.verbose
            ? nil : LocalHandOff.runningHaul(stateDirectory: options.stateDirectoryPath)
        guard toStandardOutput || options.download.dryRun == true || runningHaul != nil else { return false }
        let configuration = try runConfiguration(of: options, reporter: reporter)
        let (entries, _) = try readEntries(of: options, continuing: continuing)
        if let runningHaul {
            try handOff(entries, options: options, to: runningHaul, reporter: reporter)
        } else if let entry = entries.first, toStandardOutput {
            try self.toStandardOutput(
                entry, configuration: configuration, showsProgress: !options.basic.quiet && isatty(STDERR_FILENO) == 1)
        } else {
            try dryRun(entries, configuration: configuration, reporter: reporter)
        }
        return true
    }

    /// The queue's configuration from `options`, its warnings reported.
    static func runConfiguration(
        of options: QueueOptions, reporter: ProgressReporter
    ) throws -> DownloadQueue.Configuration {
        var configuration = try options.configuration { reporter.report($0) }
        configuration.keepsEveryHeader = options.basic.verbose
        return configuration
    }

    /// The downloads `options` name, their problems reported; a run that names downloads but
    /// where none is usable ends here.
    static func readEntries(
        of options: QueueOptions, continuing: Bool
    ) throws -> (entries: [QueueEntry], rejected: Int) {
        let (entries, rejected) = try options.startup.entries { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        guard continuing || !entries.isEmpty else {
            FileHandle.standardError.write(
                Data("haul: nothing to download: \(options.basic.inputFile ?? "-") holds no usable entry\n".utf8))
            throw ExitStatus(1)
        }
        return (entries, rejected)
    }

    /// A full-screen UI or a daemon holds the state directory: it downloads `entries`, and this
    /// command waits for them and exits with their status, as if it had run them.
    private static func handOff(
        _ entries: [QueueEntry], options: QueueOptions, to running: RPCClient, reporter: ProgressReporter
    ) throws {
        let gids: [GID]
        do {
            gids = try LocalHandOff.submit(
                entries, defaults: options.download, directory: options.basic.dir, to: running)
        } catch {
            reporter.report("haul: the running haul refused the downloads: \(error)")
            throw ExitStatus(1)
        }
        if options.hooks.givesAny {
            reporter.report("haul: the hooks given here are not handed over; the running haul runs its own")
        }
        reporter.report(
            "handed \(gids.count) download\(gids.count == 1 ? "" : "s") to the haul running on "
                + "\(options.stateDirectoryPath); waiting for them")
        let (completed, lastError) = LocalHandOff.wait(
            for: gids, on: running, report: { reporter.report($0) },
            progress: { reporter.showStatus(of: $0, waiting: $1) })
        if completed < gids.count { throw ExitStatus((lastError ?? .unknown).rawValue) }
    }

    /// `-o -`: the one download's body to stdout.
    private static func toStandardOutput(
        _ entry: QueueEntry, configuration: DownloadQueue.Configuration, showsProgress: Bool
    ) throws {
        guard let text = entry.uris.first, let url = URL(string: text) else {
            throw ExitStatus(ErrorCode.unknown.rawValue)
        }
        let options = EffectiveOptions(entry.options.merged(over: configuration.defaults))
        let request = configuration.request(for: url, options: options)
        guard let failure = StandardOutputDownload.run(request, showsProgress: showsProgress) else {
            return
        }
        FileHandle.standardError.write(Data("haul: \(url.redactedString): \(failure.message)\n".utf8))
        throw ExitStatus(failure.code.rawValue)
    }

    /// `--dry-run`: asks for each file, says its name and size, and saves nothing (the store is
    /// not touched either).
    private static func dryRun(
        _ entries: [QueueEntry], configuration: DownloadQueue.Configuration,
        reporter: ProgressReporter
    ) throws {
        var configuration = configuration
        configuration.defaults.dryRun = true
        let queue = DownloadQueue(configuration: configuration, onEvent: { reporter.handle($0) })
        let ids = queue.add(entries)
        let found = reporter.waitUntilDone(count: ids.count)
        if found.completed < found.total {
            throw ExitStatus(reporter.lastErrorCode?.rawValue ?? ErrorCode.unknown.rawValue)
        }
    }

    /// That the download saved as `name` drops the data an earlier run kept, and why.
    static func startsOver(_ name: String) -> String {
        "\(TextSanitizer.visible(name)) starts over: no validator (ETag, Last-Modified) from its server"
    }

    /// The names of the downloads among `downloads` that drop the data an earlier run kept.
    static func startingOver(_ downloads: [Download]) -> [String] {
        downloads.compactMap { download in
            download.losesPartialDataOnRestart
                ? download.destination.map { FileNaming.folderAndName(of: $0).name } : nil
        }
    }

    /// Says which unfinished files are continued (and which could not be), and which existing
    /// files `-c` would have continued: the first few by name, then how many more.
    static func reportFiles(
        _ continuation: StoredQueue.Continuation, quiet: Bool, to reporter: ProgressReporter
    ) {
        for problem in continuation.problems { reporter.report("warning: \(problem)") }
        guard !quiet else { return }
        if continuation.continued > 0 {
            let count = continuation.continued
            reporter.report("continuing \(count) download\(count == 1 ? "" : "s") from an earlier run")
        }
        reportFirst(continuation.unfinished.lazy.map(\.summary), of: continuation.unfinished.count, to: reporter) {
            "and \($0) more unfinished files continued"
        }
        let startingOver = startingOver(continuation.startingOver).lazy.map {
            startsOver($0) + "; -c continues it anyway"
        }
        reportFirst(startingOver, of: startingOver.count, to: reporter) { "and \($0) more downloads start over" }
        let continuable = continuation.continuable.lazy.map {
            "\(TextSanitizer.visible($0)) exists: the download is saved beside it; -c continues it instead"
        }
        reportFirst(continuable, of: continuable.count, to: reporter) {
            "and \($0) more existing files -c would continue"
        }
    }

    /// Says which files are complete already (saved by an earlier run, and unchanged), as
    /// `wget -c` does: the first few by name, then how many more.
    static func reportAlreadySaved(
        _ ids: [GID], count: Int, in queue: DownloadQueue,
        to reporter: ProgressReporter
    ) {
        let saved = ids.lazy.compactMap { queue.download($0) }.filter { $0.state == .complete }.prefix(shownFirst)
            .map { download in
                "\(TextSanitizer.visible(download.destination ?? download.displayURI)) is complete already "
                    + "(\(ByteCount.format(download.totalBytes))): not downloaded again; "
                    + "--allow-overwrite fetches it anew"
            }
        reportFirst(saved, of: count, to: reporter) { "and \($0) more complete already" }
    }

    /// How many files a list of them names before it says how many more there are.
    static let shownFirst = 5

    /// The first `shownFirst` of `lines` (of `count` in all), then `more` with how many were left out.
    static func reportFirst(
        _ lines: some Sequence<String>, of count: Int, to reporter: ProgressReporter, more: (Int) -> String
    ) {
        for line in first(lines, of: count, more: more) { reporter.report(line) }
    }

    /// The first `shownFirst` of `lines` (of `count` in all), then `more` with how many were left out.
    static func first(_ lines: some Sequence<String>, of count: Int, more: (Int) -> String) -> [String] {
        Array(lines.prefix(shownFirst)) + (count > shownFirst ? [more(count - shownFirst)] : [])
    }

    /// On SIGINT or SIGTERM: writes the queue's last progress to the store (and the cookies, if
    /// asked), says how to go on (and which running downloads a later run starts over, and
    /// why), and exits 7 (aria2's "unfinished downloads").
    static func stopOnInterrupt(
        _ stored: StoredQueue, options: QueueOptions, reporter: ProgressReporter
    ) -> [any DispatchSourceSignal] {
        StopSignals.handle([SIGINT, SIGTERM]) {
            stored.close()
            _ = options.startup.keepCookies { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            let startingOver = reporter.startingOverLater()
            var text = "\ninterrupted; run haul get again to continue\n"
            if !startingOver.isEmpty {
                let shown = first(startingOver, of: startingOver.count) { "and \($0) more downloads start over" }
                text =
                    "\ninterrupted; run haul get again to continue, except:\n"
                    + shown.map { "  \($0)\n" }.joined()
            }
            FileHandle.standardError.write(Data(text.utf8))
            Foundation.exit(ErrorCode.unfinished.rawValue)
        }
    }
}
