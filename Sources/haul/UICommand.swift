import Foundation
import HaulCore
import HaulCurses
import HaulNet
import HaulRPC
import HaulTUI

// MARK: - UICommand

/// `haul [URL…] [-i FILE]`: the full-screen queue, restored from the store, with the given URLs
/// and queue file added. When stdout is not a terminal (or with `--headless`) it downloads as
/// `haul get` does.
struct UICommand: HaulCommand {
    static let about = CommandAbout(
        name: "ui",
        abstract: "The full-screen queue (what haul runs when no command is given).",
        discussion: """
            Keys: ? shows them all; q quits (the queue is saved and continues next time). \
            Themes: --theme NAME|PATH, or theme = "NAME" in $XDG_CONFIG_HOME/haul/config.toml; \
            user themes go in $XDG_CONFIG_HOME/haul/themes/NAME.toml. NO_COLOR turns colour off.
            """)

    static let groups = queueGroups + [OptionGroup(HelpText.ownOptionsTitle, ownOptions)]

    /// The options only the full-screen queue takes.
    private static let ownOptions: [OptionSpec<UICommand>] = [
        .value(
            "theme", "theme", choices: ThemeCatalog.standard().names,
            help: "Colour theme: a name (default, light, high-contrast, monochrome, solarized-dark, dracula, or "
                + "your own) or a .toml path."
        ) { $0.theme = $1 },
        .flag("headless", help: "Download without the full-screen UI, as haul get does.") { $0.headless = $1 },
        .value("frame-stats", "file", hidden: true, help: "Write the frames' timings to this file at the end.") {
            $0.frameStats = $1
        },
        .value(
            "connect", "url",
            help: "Attach to a daemon's queue: haul daemon's, or aria2c --enable-rpc's (http://HOST:6800/jsonrpc; "
                + "ws:// and https:// too)."
        ) { $0.connect = $1 },
        .value("rpc-secret", "secret", help: "The daemon's secret (its --rpc-secret), with --connect.") {
            $0.rpcSecret = $1
        },
        .value(
            "rpc-secret-file", "file",
            help: "Read the daemon's secret from FILE's first line instead, with --connect (the haul-daemon "
                + "service's is ~/.config/haul/rpc-secret); FILE must be yours alone (mode 0600)."
        ) { $0.rpcSecretFile = $1 },
    ]

    var options = QueueOptions()
    var theme: String?
    var headless = false
    var frameStats: String?
    var connect: String?
    var rpcSecret: String?
    var rpcSecretFile: String?

    func validate() throws {
        try options.validate()
        if let connect, RemoteAddress.url(connect) == nil {
            throw UsageError("--connect '\(connect)' is not a daemon's URL (http://HOST:6800/jsonrpc)")
        }
        if rpcSecret != nil || rpcSecretFile != nil, connect == nil {
            throw UsageError("--rpc-secret and --rpc-secret-file go with --connect URL")
        }
        if rpcSecret != nil, rpcSecretFile != nil {
            throw UsageError("--rpc-secret and --rpc-secret-file both give the secret: give one of them")
        }
    }

    func run() throws {
        if let connect, let url = RemoteAddress.url(connect) {
            let tls = options.tlsOptions()
            let secret =
                try rpcSecretFile.map { path throws(SecretFile.Problem) in
                    try SecretFile.secret(at: path, makingIt: false) { _ in }
                } ?? rpcSecret
            try attach(to: RPCClient(url: url, secret: secret, tls: tls), as: connect)
            return
        }
        if headless || isatty(STDOUT_FILENO) == 0 {
            try GetCommand.download(options)
            return
        }
        if let problem = UICommand.terminalProblem {
            FileHandle.standardError.write(Data("haul: \(problem); downloading as haul get does\n".utf8))
            try GetCommand.download(options)
            return
        }
        if let running = LocalHandOff.runningHaul(stateDirectory: options.stateDirectoryPath) {
            try handOff(to: running)
            return
        }
        signal(SIGXFSZ, SIG_IGN)
        var options = options
        try options.askForPassword()
        var notices: [String] = []
        // A local queue file alone is read behind the first frame: a long one shows its count
        // growing while the keys work.
        let behind = options.queueFileReadBehind
        var first = options
        if behind != nil { first.basic.inputFile = nil }
        let (entries, _) = try first.startup.entries { notices.append($0) }
        let inbox = EventInbox()
        let hub = NotificationHub()
        let configuration = try options.configuration { notices.append($0) }
        let hooks = try options.startup.hookRunner { inbox.postNotice($0, isError: true) }
        try options.startup.startCookies { notices.append($0) }
        // The store first (a failure is printed on a plain terminal), then the screen; the
        // stored downloads start once it is up.
        let stored = try options.startup.openStore(
            at: options.stateDirectoryPath, configuration: configuration,
            maxDownloadResults: options.basic.maxDownloadResult, report: { notices.append($0) },
            onStoreError: { inbox.postError("\($0)") },
            onEvent: { event in
                hooks?.handle(event)
                inbox.post(event)
                if let notification = Aria2Notification(event) { hub.post(notification) }
            })
        let local = LocalSocket.serve(
            stored.queue, stateDirectory: options.stateDirectoryPath,
            settings: LocalSocket.settings(
                for: configuration, queue: stored.queue, queueSettings: options.connections.queue,
                stateDirectory: options.stateDirectoryPath, saveSession: options.basic.saveSession,
                allowedDirectory: nil, stop: { inbox.requestStop() }),
            hub: hub, report: { notices.append($0) })
        defer { local?.stop() }
        let (startTheme, themeProblem) = chooseTheme()
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal()
        } catch {
            // A terminal that cannot draw the queue still downloads, as haul get does.
            FileHandle.standardError.write(Data("haul: \(error); downloading as haul get does\n".utf8))
            try GetCommand.download(options)
            return
        }
        let limit = options.overallLimit()
        let queueFileLimit = options.queueFileLimit()
        stored.restoreAll(adding: entries)
        let startingOver = GetCommand.startingOver(stored.stored.filter { $0.state != .complete })
        if let first = startingOver.first {
            let more = startingOver.count > 1 ? " (and \(startingOver.count - 1) more)" : ""
            inbox.postNotice(GetCommand.startsOver(first) + more, isError: false)
        }
        let scheduler = options.startup.startSchedule(on: stored.queue) { inbox.postSchedule($0) }
        defer { scheduler?.stop() }

        CrashGuard.arm()
        let runner = AppRunner(
            terminal: terminal, queue: stored.queue, inbox: inbox, themes: .standard(),
            theme: startTheme, globalLimit: limit,
            remoteQueueFiles: {
                RemoteQueueFile.standard(limit: queueFileLimit, tls: options.tlsOptions()) {
                    inbox.postNotice($0, isError: true)
                }
            },
            queueFileLimit: queueFileLimit,
            recordsFrameStats: frameStats != nil)
        if let notice = themeProblem ?? notices.last { runner.notify(notice, isError: themeProblem != nil) }
        if let behind { UICommand.read(behind, limit: queueFileLimit, into: stored, inbox: inbox) }
        let stopHandlers = StopSignals.handle([SIGINT, SIGTERM, SIGHUP]) { inbox.requestStop() }
        withExtendedLifetime(stopHandlers) { runner.run() }
        terminal.restore()
        CrashGuard.disarm()
        if let frameStats, let stats = runner.stats {
            try? stats.report.write(toFile: frameStats, atomically: true, encoding: .utf8)
        }
        stored.close()
        hooks?.waitForRunning()
        _ = options.startup.keepCookies { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        let unfinished = stored.queue.count(in: [.queued, .active, .paused])
        if unfinished > 0 {
            print("haul: \(unfinished) download\(unfinished == 1 ? "" : "s") saved in the queue; run haul to continue")
        }
    }

    /// The theme from --theme, else config.toml, else default; a broken one falls back to
    /// default (or to the built-in attributes) with the reason to show.
    func chooseTheme() -> (Theme, String?) {
        let catalog = ThemeCatalog.standard()
        var requested = theme
        var problem: String?
        if requested == nil {
            do {
                requested = try ConfigFile.load(path: ConfigFile.path()).theme
            } catch {
                problem = "\(error)"
            }
        }
        do {
            return (try catalog.load(requested ?? "default"), problem)
        } catch {
            let fallback = (try? catalog.load("default")) ?? Theme.attributesOnly
            return (fallback, "\(error); using \(fallback.name)")
        }
    }

    /// Reads the queue file at `path` off the loop and queues its entries after the stored
    /// downloads, telling the UI what came of it.
    private static func read(_ path: String, limit: Int64, into stored: StoredQueue, inbox: EventInbox) {
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                let file = try InputFile.read(contentsOf: path, limit: limit)
                stored.addAfterRestore(file.entries)
                let first = file.problems.first.map { " (first problem: \($0))" } ?? ""
                inbox.postNotice("\(file.summary) from \(path)\(first)", isError: !file.problems.isEmpty)
            } catch {
                inbox.postNotice("\(error)", isError: true)
            }
        }
    }
}
