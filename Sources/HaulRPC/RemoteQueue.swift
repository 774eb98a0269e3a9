import Foundation
import HaulCore
import HaulText
import HaulTorrent
import Synchronization

// MARK: - RemoteQueue

/// A daemon's queue (haul's, or `aria2c --enable-rpc`) as the UI sees a local one: its
/// downloads arrive as `DownloadEvent`s from polling (every `interval`, and at once when the
/// daemon's WebSocket says a download started, paused, stopped, completed or failed), and each command is
/// sent in order over JSON-RPC. A command the daemon refuses, or that cannot be sent, is said
/// in a notice, never dropped silently; a lost daemon is said once, tried again with backoff,
/// and said again when it is back.
///
/// **Threading:** commands from any thread return at once; `onEvent` and `onNotice` run on a
/// task of the queue's own, one at a time.
package final class RemoteQueue: QueueControl {
    package let client: RPCClient
    package let maxConcurrentDownloads: Int
    package var canDeleteFiles: Bool { false }
    package var outlivesFrontEnd: Bool { true }
    private let interval: Duration
    private let onEvent: @Sendable (DownloadEvent) -> Void
    private let onNotice: @Sendable (String, _ isError: Bool) -> Void
    private let onLimit: @Sendable (Int64?) -> Void
    /// The daemon's overall limit as last polled (nil: none).
    private let limit: Mutex<Int64?>
    private let commands: AsyncStream<Command>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The last snapshot, which the next poll's events start from.
    private let last = Mutex(RemoteSnapshot())
    /// Notifications wake the poller; the newest one is enough.
    private let wake = Wakeup()
    /// The daemon's WebSocket, while it is open, and when it was last tried.
    private let listener = Mutex<(open: NotificationListener?, tried: ContinuousClock.Instant?)>((nil, nil))

    private enum Command {
        case call(String, [JSONValue], what: String)
        case retry(GID)
        case remove(GID)
        case submit([QueueEntry])
    }

    /// Connects to the daemon `client` calls: asks for its global options (so a daemon that
    /// cannot be reached, or refuses the secret, fails here, before any screen). Throws
    /// `RPCClient.Failure`. `onLimit` is told the daemon's overall limit (nil: none) whenever
    /// another poll finds it changed, on the queue's task.
    package static func connect(
        _ client: RPCClient, interval: Duration = .milliseconds(500),
        onEvent: @escaping @Sendable (DownloadEvent) -> Void,
        onNotice: @escaping @Sendable (String, _ isError: Bool) -> Void,
        onLimit: @escaping @Sendable (Int64?) -> Void = { _ in }
    ) async throws(RPCClient.Failure) -> RemoteQueue {
        let settings = RemoteQueue.settings(in: try await client.call("aria2.getGlobalOption"))
        return RemoteQueue(
            client: client, maxConcurrentDownloads: settings.maxConcurrentDownloads,
            overallLimit: settings.maxOverallDownloadLimit.cap, interval: interval, onEvent: onEvent,
            onNotice: onNotice, onLimit: onLimit)
    }

    /// The queue's options `getGlobalOption`'s reply shows, each read by its row.
    static func settings(in options: JSONValue) -> QueueSettings {
        QueueSettings(shown: options.object?.compactMapValues(\.string) ?? [:])
    }

    private init(
        client: RPCClient, maxConcurrentDownloads: Int, overallLimit: Int64?, interval: Duration,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void,
        onNotice: @escaping @Sendable (String, _ isError: Bool) -> Void,
        onLimit: @escaping @Sendable (Int64?) -> Void
    ) {
        self.client = client
        self.maxConcurrentDownloads = maxConcurrentDownloads
        self.interval = interval
        self.onEvent = onEvent
        self.onNotice = onNotice
        self.onLimit = onLimit
        limit = Mutex(overallLimit)
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        let sending = Task { [weak self] in
            for await command in stream { await self?.send(command) }
        }
        let polling = Task { [weak self] in
            guard let self else { return }
            await self.poll()
        }
        tasks.withLock { $0 = [sending, polling] }
    }

    /// The daemon's overall limit as last polled (nil: none); any thread.
    package var overallLimit: Int64? { limit.withLock { $0 } }

    /// Stops polling and sending (the polling task holds the queue until then).
    package func close() {
        commands.finish()
        wake.close()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        listener.withLock { $0.open }?.close()
    }

    // MARK: - Polling

    private func poll() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let (next, overall) = try await snapshot()
                let events = last.withLock { last in
                    defer { last = next }
                    return last.events(to: next)
                }
                for event in events { onEvent(event) }
                let changed = limit.withLock { limit in
                    defer { limit = overall }
                    return limit != overall
                }
                if changed { onLimit(overall) }
                if failures > 0 { onNotice("connected to \(client.url.redactedString) again", false) }
                failures = 0
                await listen()
                await wake.wait(upTo: interval)
            } catch {
                failures += 1
                let wait = RemoteQueue.backoff(after: failures)
                if failures == 1 || failures % 10 == 0 {
                    onNotice(
                        "lost the daemon at \(client.url.redactedString) (\(error)); trying again every "
                            + "\(wait.components.seconds) s", true)
                }
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// Opens the daemon's WebSocket when it is not open, at most every 10 s; a daemon without
    /// one is polled alone.
    private func listen() async {
        let now = ContinuousClock.now
        let due = listener.withLock { state -> Bool in
            guard state.open == nil, state.tried.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            state.tried = now
            return true
        }
        guard due else { return }
        let wake = wake
        let opened = try? await NotificationListener.connect(
            to: client, onNotification: { _, _ in wake.signal() },
            onClose: { [weak self] in self?.listener.withLock { $0.open = nil } })
        guard !Task.isCancelled else {
            opened?.close()
            return
        }
        listener.withLock { $0.open = opened }
    }

    /// The pause before the next try after `failures` failed polls: 1, 2, 4, 8, then 15 s.
    static func backoff(after failures: Int) -> Duration {
        .seconds(min(1 << min(failures - 1, 4), 15))
    }

    /// Every download the daemon lists now, and its overall limit, in one request.
    private func snapshot() async throws(RPCClient.Failure) -> (RemoteSnapshot, overallLimit: Int64?) {
        let keys: JSONValue = [
            "gid", "status", "totalLength", "completedLength", "downloadSpeed", "dir", "files", "errorCode",
            "errorMessage", "infoHash", "uploadSpeed", "uploadLength", "numSeeders", "seeder", "connections",
            "numPieces", "pieceLength", "bittorrent",
        ]
        let results = try await client.multicall([
            ("aria2.tellActive", [keys]), ("aria2.tellWaiting", [0, 10_000, keys]),
            ("aria2.tellStopped", [0, 10_000, keys]), ("aria2.getGlobalOption", []),
        ])
        var lists: [JSONValue] = []
        for result in results {
            switch result {
            case .success(let list): lists.append(list)
            case .failure(let error): throw .refused(error)
            }
        }
        let limit = RemoteQueue.settings(in: lists.popLast() ?? .null).maxOverallDownloadLimit.cap
        return (RemoteSnapshot(records: lists.flatMap { $0.array ?? [] }), limit)
    }

    // MARK: - Commands

    package func submit(_ entries: [QueueEntry]) { commands.yield(.submit(entries)) }
    package func pause(_ id: GID) { commands.yield(.call("aria2.pause", [.gid(id)], what: "pause \(id)")) }
    package func resume(_ id: GID) { commands.yield(.call("aria2.unpause", [.gid(id)], what: "resume \(id)")) }
    package func cancel(_ id: GID) { commands.yield(.call("aria2.remove", [.gid(id)], what: "stop \(id)")) }
    package func retry(_ id: GID) { commands.yield(.retry(id)) }
    package func remove(_ ids: [GID]) { for id in ids { commands.yield(.remove(id)) } }

    package func remove(_ id: GID, deletingFiles: Bool) -> [String] {
        remove([id])
        return []
    }

    package func move(_ id: GID, _ move: DownloadQueue.Move) {
        let (offset, how): (Int, String) =
            switch move {
            case .up: (-1, "POS_CUR")
            case .down: (1, "POS_CUR")
            case .top: (0, "POS_SET")
            case .bottom: (0, "POS_END")
            case .to(let index): (index, "POS_SET")
            }
        commands.yield(
            .call("aria2.changePosition", [.gid(id), .int(Int64(offset)), .string(how)], what: "move \(id)"))
    }

    package func setMaxDownloadLimit(_ id: GID, _ bytesPerSecond: Int64?) {
        let options: JSONValue = [DownloadOptionTable.Name.maxDownloadLimit: .string(String(bytesPerSecond ?? 0))]
        commands.yield(.call("aria2.changeOption", [.gid(id), options], what: "set the speed cap of \(id)"))
    }

    package func changeLiveOptions(_ id: GID, _ options: DownloadOptions) {
        let pairs = options.pairs(includingSecrets: false)
        guard !pairs.isEmpty else { return }
        let changed = JSONValue.object(Dictionary(pairs.map { ($0.0, JSONValue.string($0.1)) }) { _, last in last })
        commands.yield(
            .call(
                "aria2.changeOption", [.gid(id), changed],
                what: "change \(pairs.map(\.0).joined(separator: ", ")) of \(id)"))
    }

    package func askTorrentDetail(_ id: GID, reply: @escaping @Sendable (TorrentDetail?) -> Void) {
        Task { [client] in
            let keys: JSONValue = ["dir", "files", "bittorrent", "infoHash", "bitfield"]
            let results = try? await client.multicall([
                ("aria2.tellStatus", [.gid(id), keys]), ("aria2.getPeers", [.gid(id)]),
            ])
            guard case .success(let status)? = results?.first else { return reply(nil) }
            let peers: JSONValue = if case .success(let peers)? = results?.last { peers } else { [] }
            reply(Aria2Status.torrentDetail(from: status, peers: peers))
        }
    }

    package func setMaxOverallDownloadLimit(_ bytesPerSecond: Int64?) {
        let options: JSONValue = [QueueOptionTable.maxOverallDownloadLimit.name: .string(String(bytesPerSecond ?? 0))]
        commands.yield(.call("aria2.changeGlobalOption", [options], what: "set the overall speed cap"))
    }

    package func authenticate(_ id: GID, user: String, password: String) {
        let options: JSONValue = ["http-user": .string(user), "http-passwd": .string(password)]
        commands.yield(.call("aria2.changeOption", [.gid(id), options], what: "log in for \(id)"))
        commands.yield(.retry(id))
    }

    private func send(_ command: Command) async {
        switch command {
        case .call(let method, let params, let what):
            await attempt(what) { () throws(RPCClient.Failure) in _ = try await client.call(method, params) }
        case .submit(let entries):
            await attempt("add \(entries.count) download\(entries.count == 1 ? "" : "s")") {
                () throws(RPCClient.Failure) in
                for case .failure(let error) in try await client.multicall(entries.map(RemoteQueue.addCall)) {
                    throw .refused(error)
                }
            }
        case .remove(let id):
            await attempt("remove \(id)") { () throws(RPCClient.Failure) in
                // Refused when it has stopped already (the last poll may not know yet): its
                // result is removed all the same, as aria2p removes it.
                _ = try? await client.call("aria2.forceRemove", [.gid(id)])
                try await removeResult(id)
            }
        case .retry(let id):
            await attempt("retry \(id)") { () throws(RPCClient.Failure) in
                // aria2 has no retry: the same URIs and options are added anew, the old result
                // removed. The URIs come from the status, as AriaNg takes them: aria2's getUris
                // answers for an active or waiting download only.
                let status = try await client.call("aria2.tellStatus", [.gid(id), ["files"]])
                let listed = status.object?["files"]?.array?.first?.object?["uris"]?.array ?? []
                var seen = Set<String>()
                let uris = listed.compactMap { $0.object?["uri"]?.string }.filter { seen.insert($0).inserted }
                    .map(JSONValue.string)
                var options = try await client.call("aria2.getOption", [.gid(id)]).object ?? [:]
                options["gid"] = nil
                _ = try await client.call("aria2.addUri", [.array(uris), .object(options)])
                try await removeResult(id)
            }
        }
    }

    /// The call that queues `entry` on a daemon: `aria2.addUri` with its URIs, or `addTorrent`
    /// with the content of a .torrent on this machine; its options by aria2's names (a `header`
    /// given more than once as an array).
    package static func addCall(for entry: QueueEntry) -> (String, [JSONValue]) {
        var options: [String: JSONValue] = [:]
        for (name, value) in entry.options.pairs(includingSecrets: true) {
            switch options[name] {
            case nil: options[name] = .string(value)
            case .array(let values): options[name] = .array(values + [.string(value)])
            case let first?: options[name] = [first, .string(value)]
            }
        }
        if let gid = entry.gid { options["gid"] = .gid(gid) }
        // A .torrent on this machine goes to the daemon as its content (it may be on another).
        if case .metainfoFile(let path)? = entry.uris.first.flatMap(TorrentLink.init(uri:)),
            let data = FileManager.default.contents(atPath: path), data.count <= TorrentMetainfo.longest
        {
            return (
                "aria2.addTorrent",
                [
                    .string(data.base64EncodedString()), .array(entry.uris.dropFirst().map(JSONValue.string)),
                    .object(options),
                ]
            )
        }
        return ("aria2.addUri", [.array(entry.uris.map(JSONValue.string)), .object(options)])
    }

    /// Takes a stopped download's result off the daemon's list, waiting up to 3 s for a
    /// removal aria2 makes in the background.
    private func removeResult(_ id: GID) async throws(RPCClient.Failure) {
        var tries = 0
        while true {
            do {
                _ = try await client.call("aria2.removeDownloadResult", [.gid(id)])
                return
            } catch {
                tries += 1
                guard tries < 30 else { throw error }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Runs `body`; a failure becomes a notice saying what could not be done and why.
    private func attempt(_ what: String, _ body: () async throws(RPCClient.Failure) -> Void) async {
        do {
            try await body()
        } catch {
            onNotice("could not \(what) on the daemon: \(error)", true)
        }
    }
}
