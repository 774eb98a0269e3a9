import Foundation
import HaulCore
import HaulText
import Synchronization

// MARK: - AppRunner

/// The UI loop (bubbletea's model, update, view): read keys with a short timeout, take the
/// queue's events, reduce, run the effects against the queue, and draw when something changed,
/// at most `framesPerSecond` times a second for queue events and at once for keys. Nothing here
/// blocks the engine: commands to the queue return at once.
///
/// **Threading:** `run` owns the calling thread (the main thread) until the user quits.
package final class AppRunner {
    package static let framesPerSecond = 15.0

    private let terminal: any Terminal
    private let queue: any QueueControl
    private let inbox: EventInbox
    private let themes: ThemeCatalog
    /// Made at the first import by URL, so a session that never imports one opens no cache.
    private lazy var remoteQueueFiles = makeRemoteQueueFiles()
    private let makeRemoteQueueFiles: () -> RemoteQueueFile
    /// The longest queue-file text an import reads.
    private let queueFileLimit: Int64
    private var theme: Theme
    /// Where `t`'s theme loads run, in order, and the name the latest one chose.
    private let themeLoads = DispatchQueue(label: "haul.theme-loads")
    private let chosenTheme: ThemeChoice
    private var state: AppState
    /// The generation of the last sort sent off the loop.
    private var sortStarted: Int?
    /// Frame and key timings, kept only when asked for (`--frame-stats`).
    package private(set) var stats: FrameStats?

    /// `theme` is the one to start with; without colours the attributes-only theme is used.
    /// A queue file imported by URL is loaded with what `remoteQueueFiles` makes.
    package init(
        terminal: any Terminal, queue: any QueueControl, inbox: EventInbox, themes: ThemeCatalog,
        theme: Theme, globalLimit: Int64?, remoteQueueFiles: @escaping () -> RemoteQueueFile,
        queueFileLimit: Int64 = InputFile.defaultLimit, recordsFrameStats: Bool = false
    ) {
        self.queueFileLimit = queueFileLimit
        self.terminal = terminal
        self.queue = queue
        self.inbox = inbox
        self.themes = themes
        makeRemoteQueueFiles = remoteQueueFiles
        stats = recordsFrameStats ? FrameStats() : nil
        self.theme = terminal.colorCount > 0 ? theme : Theme.attributesOnly
        chosenTheme = ThemeChoice(self.theme.name)
        let size = terminal.size
        state = AppState(
            width: size.width, height: size.height, themeName: self.theme.name, globalLimit: globalLimit,
            maxConcurrentDownloads: queue.maxConcurrentDownloads, queueOutlivesScreen: queue.outlivesFrontEnd)
    }

    /// Shows `text` on the message line (for example a queue file's summary).
    package func notify(_ text: String, isError: Bool) {
        _ = state.reduce(.notice(text, isError: isError))
    }

    /// Runs until the user quits or a stop is requested.
    package func run() {
        // The first frame before any event: a queue file read behind it may already have
        // posted many, and the screen should not wait for them.
        drawFrame()
        var lastFrame = ProcessInfo.processInfo.systemUptime
        var lastTick = lastFrame
        var dirty = true
        while true {
            // No wait for keys while rows are being worked out: the next slice is due.
            let keys = terminal.readKeys(timeout: state.isScanningRows ? 0 : 50)
            let taken = inbox.take()
            if taken.stop { return }
            for event in taken.events { _ = state.reduce(.queue(event)) }
            if let loadedTheme = taken.theme {
                theme = loadedTheme
                _ = state.reduce(.themeChanged(loadedTheme.name))
            }
            if let notice = taken.notices.last { notify(notice.text, isError: notice.isError) }
            if let sorted = taken.sortedRows { _ = state.reduce(.rowsSorted(sorted)) }
            if let status = taken.schedule { _ = state.reduce(.scheduledLimit(status)) }
            if let limit = taken.daemonLimit { _ = state.reduce(.daemonLimit(limit)) }
            if let (id, detail) = taken.torrentDetail { _ = state.reduce(.torrentDetail(id, detail)) }
            if taken.changesScreen { dirty = true }
            let now = ProcessInfo.processInfo.systemUptime
            if now - lastTick >= 1 {
                lastTick = now
                for effect in state.reduce(.tick(Date())) { perform(effect) }
                dirty = true
            }
            let keyed = !keys.isEmpty
            if keyed {
                for effect in state.reduce(.keys(keys)) {
                    if effect == .quit { return }
                    perform(effect)
                }
            }
            if scanRows(since: now) { dirty = true }
            startSort()
            if keyed || (dirty && now - lastFrame >= 1 / AppRunner.framesPerSecond) {
                let (start, staged) = drawFrame()
                if stats != nil {
                    let end = ProcessInfo.processInfo.systemUptime
                    stats?.recordFrame(
                        work: (staged - start) * 1000, withOutput: (end - start) * 1000,
                        afterKey: keyed ? (end - now) * 1000 : nil)
                }
                lastFrame = now
                dirty = false
            }
        }
    }

    /// Draws the state and shows it; returns when the drawing started and when it was staged.
    @discardableResult
    private func drawFrame() -> (start: Double, staged: Double) {
        let start = ProcessInfo.processInfo.systemUptime
        terminal.draw(ScreenRenderer.render(state), theme: theme)
        let staged = ProcessInfo.processInfo.systemUptime
        terminal.present()
        return (start, staged)
    }

    /// Slices of a filter or sort, for up to `scanBudget` seconds of this turn; whether any ran.
    private func scanRows(since start: Double) -> Bool {
        var scanned = false
        while state.isScanningRows, ProcessInfo.processInfo.systemUptime - start < AppRunner.scanBudget {
            _ = state.reduce(.scanRows)
            scanned = true
        }
        return scanned
    }

    /// Seconds of a turn that slices of a filter or sort may take: with the frame, under 5 ms.
    static let scanBudget = 0.003

    /// Sorts a finished scan's rows off the loop; the result comes back through the inbox.
    private func startSort() {
        guard let request = state.sortRequest, request.generation != sortStarted else { return }
        sortStarted = request.generation
        DispatchQueue.global(qos: .userInitiated).async { [inbox] in
            inbox.postSortedRows(request.run())
        }
    }

    // MARK: - Effects

    private func perform(_ effect: Effect) {
        switch effect {
        case .pause(let ids): for id in ids { queue.pause(id) }
        case .resume(let ids): for id in ids { queue.resume(id) }
        case .cancel(let id): queue.cancel(id)
        case .retry(let ids): for id in ids { queue.retry(id) }
        case .remove(let id, let deleteFile): remove(id, deleteFile: deleteFile)
        case .removeRows(let ids): queue.remove(ids)
        case .move(let id, let move): queue.move(id, move)
        case .add(let uris): queue.submit(uris.map { QueueEntry(uris: [$0]) })
        case .importFile(let path): importFile(path)
        case .setLimit(let id, let limit): queue.setMaxDownloadLimit(id, limit)
        case .setGlobalLimit(let limit): queue.setMaxOverallDownloadLimit(limit)
        case .authenticate(let id, let user, let password): queue.authenticate(id, user: user, password: password)
        case .askTorrentDetail(let id):
            queue.askTorrentDetail(id) { [inbox] detail in inbox.postTorrentDetail(detail, of: id) }
        case .changeLiveOptions(let id, let options): queue.changeLiveOptions(id, options)
        case .cycleTheme: cycleTheme()
        case .quit: break
        }
    }

    /// Removes the download; with its file, the deletion runs off the loop and reports back.
    private func remove(_ id: GID, deleteFile: Bool) {
        guard deleteFile, queue.canDeleteFiles else {
            queue.remove([id])
            if deleteFile { notify("removed; its file stays on the daemon's machine", isError: false) }
            return
        }
        DispatchQueue.global(qos: .userInitiated).async { [queue, inbox] in
            let deleted = queue.remove(id, deletingFiles: true)
            inbox.postNotice(
                deleted.isEmpty
                    ? "removed; there was no file to delete" : "removed and deleted \(deleted.joined(separator: ", "))",
                isError: false)
        }
    }

    /// Queues a queue file's entries once it is read, off the loop (a path) or loaded (a URL);
    /// the UI goes on meanwhile and the summary arrives through the inbox.
    private func importFile(_ typed: String) {
        // `~` is the home directory, as in a shell.
        let path = XDGDirectory.expandingTilde(typed)
        // A .torrent is a download of its own, not a list of them.
        if let torrent = TorrentLink.localMetainfo(path, in: FileManager.default.currentDirectoryPath) {
            queue.submit([QueueEntry(uris: [torrent])])
            notify("added the torrent \(TextSanitizer.visible(torrent))", isError: false)
            return
        }
        if let url = RemoteQueueFile.url(in: path) {
            notify("loading \(url.redactedString)…", isError: false)
            remoteQueueFiles.read(url) { [queue, inbox] result in
                let notice = AppRunner.imported(result, name: url.redactedString, into: queue)
                inbox.postNotice(notice.text, isError: notice.isError)
            }
            return
        }
        let limit = queueFileLimit
        DispatchQueue.global(qos: .userInitiated).async { [queue, inbox] in
            let notice = AppRunner.imported(
                Result { () throws(InputFile.FileError) in
                    try InputFile.read(contentsOf: path, limit: limit)
                },
                name: path, into: queue)
            inbox.postNotice(notice.text, isError: notice.isError)
        }
    }

    /// Queues what reading a queue file gave and returns the line to show for it.
    private static func imported(
        _ result: Result<InputFile.ReadResult, InputFile.FileError>, name: String,
        into queue: any QueueControl
    ) -> (text: String, isError: Bool) {
        switch result {
        case .success(let file):
            queue.submit(file.entries)
            let first = file.problems.first.map { " (first problem: \($0))" } ?? ""
            // The summary first: a long URL would push it off the message line.
            return ("\(file.summary) from \(name)\(first)", !file.problems.isEmpty)
        case .failure(let error):
            return ("\(error)", true)
        }
    }

    private func cycleTheme() {
        guard terminal.colorCount > 0 else {
            notify("this terminal shows no colour (or NO_COLOR is set): the monochrome theme stays", isError: false)
            return
        }
        // Listed, read, and remembered in config.toml for the next start, off the loop, one
        // press after another: each starts from the theme the one before chose.
        themeLoads.async { [themes, inbox, chosenTheme] in
            let current = chosenTheme.name.withLock { $0 }
            let names = themes.names
            guard !names.isEmpty else {
                inbox.postError("no theme files found")
                return
            }
            let next = names[((names.firstIndex(of: current) ?? -1) + 1) % names.count]
            do {
                let loaded = try themes.load(next)
                chosenTheme.name.withLock { $0 = loaded.name }
                inbox.postTheme(loaded)
                try ConfigFile.remember(theme: loaded.name, at: ConfigFile.path())
            } catch {
                inbox.postError("\(error)")
            }
        }
    }
}

/// The theme `t` last chose, shared by its loads off the loop.
private final class ThemeChoice: Sendable {
    let name: Mutex<String>

    init(_ name: String) {
        self.name = Mutex(name)
    }
}
