import Foundation
import HaulCore
import HaulCurses
import HaulRPC
import HaulTUI
import HaulText

// MARK: - UICommand: attached to a daemon

extension UICommand {
    /// Why this terminal cannot draw the full-screen queue, or nil when it can.
    static var terminalProblem: String? {
        let term = ProcessEnvironment.variables["TERM"] ?? ""
        guard term.isEmpty || term == "dumb" else { return nil }
        return "this terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot draw the full-screen queue"
    }

    /// The full-screen queue over the queue of the daemon `client` calls: every key works as on
    /// a local queue, each command sent over JSON-RPC. The command line's URLs are added to it.
    func attach(to client: RPCClient, as typed: String) throws {
        guard isatty(STDOUT_FILENO) == 1 else {
            throw UsageError("--connect shows the daemon's queue full-screen: it needs a terminal")
        }
        if let problem = UICommand.terminalProblem { throw UsageError(problem) }
        let (entries, _) = try options.startup.entries { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        let inbox = EventInbox()
        let connected = StartedWork(async: { () throws(RPCClient.Failure) in
            try await RemoteQueue.connect(
                client, onEvent: { inbox.post($0) }, onNotice: { inbox.postNotice($0, isError: $1) },
                onLimit: { inbox.postDaemonLimit($0) })
        }).outcome()
        let queue: RemoteQueue
        switch connected {
        case .success(let remote): queue = remote
        case .failure(let failure):
            FileHandle.standardError.write(
                Data("haul: cannot attach to \(client.url.redactedString): \(failure)\n".utf8))
            throw ExitStatus(1)
        }
        defer { queue.close() }
        if !entries.isEmpty { queue.submit(entries) }
        // Named as the user typed it (ws://…), its password left out.
        let shown = URL(string: typed)?.redactedString ?? client.url.redactedString
        try present(
            queue, inbox: inbox, globalLimit: queue.overallLimit, notice: "attached to \(TextSanitizer.visible(shown))")
    }

    /// Another haul holds the state directory: its queue gets this command's URLs, or, with
    /// none, this terminal shows its queue.
    func handOff(to running: RPCClient) throws {
        let (entries, _) = try options.startup.entries { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        guard !entries.isEmpty else {
            try attach(to: running, as: running.url.absoluteString)
            return
        }
        do {
            let gids = try LocalHandOff.submit(
                entries, defaults: options.download, directory: options.basic.dir, to: running)
            print(
                "haul: \(gids.count) download\(gids.count == 1 ? "" : "s") added to the haul already running on "
                    + "\(options.stateDirectoryPath) (run haul to see its queue)")
        } catch {
            FileHandle.standardError.write(Data("haul: the running haul refused the downloads: \(error)\n".utf8))
            throw ExitStatus(1)
        }
    }

    /// Runs the full-screen UI over the daemon's `queue`, whose overall limit is `globalLimit`,
    /// until the user quits.
    func present(_ queue: any QueueControl, inbox: EventInbox, globalLimit: Int64?, notice: String) throws {
        let (startTheme, themeProblem) = chooseTheme()
        let terminal = try CursesTerminal()
        let queueFileLimit = options.queueFileLimit()
        CrashGuard.arm()
        let runner = AppRunner(
            terminal: terminal, queue: queue, inbox: inbox, themes: .standard(), theme: startTheme,
            globalLimit: globalLimit,
            remoteQueueFiles: {
                RemoteQueueFile.standard(limit: queueFileLimit, tls: options.tlsOptions()) {
                    inbox.postNotice($0, isError: true)
                }
            },
            queueFileLimit: queueFileLimit)
        runner.notify(themeProblem ?? notice, isError: themeProblem != nil)
        let stopHandlers = StopSignals.handle([SIGINT, SIGTERM, SIGHUP]) { inbox.requestStop() }
        withExtendedLifetime(stopHandlers) { runner.run() }
        terminal.restore()
        CrashGuard.disarm()
    }
}
