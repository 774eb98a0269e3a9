import Foundation
import HaulNet

// MARK: - QueueCore

/// The download queue's decisions, with no I/O: what runs (`+Admission`), what an answer means
/// for the partial file (`+Resume`), where a body goes once named (`+Naming`), how an attempt
/// ends (`+Completion`), when a failure is tried again (`+Retry`), progress and speeds
/// (`+Progress`), and how a file is split over connections (`+SplitPlan`, `+SplitConnections`,
/// `+SplitRebalancing`). One entry point, `handle(_:)`, turns an input into effects;
/// `DownloadQueue` (the shell) runs them and feeds their results back.
///
/// **Words** used across the core's files, each meaning one thing:
/// - *attempt*: one try at a download, from the request its first connection sends to the
///   attempt's end (complete, failed, or started over); `Download.attempts` counts them, and a
///   retry is a new attempt. A split attempt runs several connections.
/// - *connection*: one request and its answer (`PlannedConnection`), known by its
///   `ConnectionID`; the shell runs it as a `DownloadConnection`.
/// - *slot*: one of the `maxConcurrentDownloads` places; an active download holds one, and its
///   host's count (`maxConnectionsPerHost`) one more.
/// - *slot holder*: the connection filed as its attempt's `Attempt.holder`: its first
///   connection, or, once that one has ended, another running connection of its split.
/// - *segment*: the byte range of a split download one connection fetches into the shared
///   partial file.
/// - *helper connection*: a connection of a split download other than its first; it asks for a
///   closed range (`Range: bytes=a-b`) and takes its own TCP connection.
/// - *gap*, *steal*, *tail race*, *laggard*: how a split's connections stay busy to the end
///   (see `QueueCore+SplitRebalancing.swift`).
struct QueueCore {
    private(set) var configuration: QueueConfiguration
    let clock: any QueueClock
    var state = State()
    /// The effects of the input being handled, in order.
    private var effects: [QueueEffect] = []

    init(configuration: QueueConfiguration, clock: any QueueClock = SystemQueueClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Applies `input` and returns what the world must do about it, in order.
    mutating func handle(_ input: QueueInput) -> [QueueEffect] {
        // Room for what most inputs ask at once, made once: grown from empty, the array was
        // made again for its second and third effects.
        effects.reserveCapacity(4)
        switch input {
        case .add(let downloads): add(downloads)
        case .pause(let id): update(id, when: [.queued, .active]) { $0.state = .paused }
        case .resume(let id): update(id, when: [.paused]) { $0.state = .queued }
        case .cancel(let id): update(id, when: [.queued, .active, .paused]) { $0.state = .cancelled }
        case .retry(let id): retry(id)
        case .authenticate(let id, let user, let password): authenticate(id, user: user, password: password)
        case .setMaxDownloadLimit(let id, let limit): setMaxDownloadLimit(id, limit)
        case .changeOptions(let id, let options): changeOptions(id, options)
        case .changeLiveOptions(let id, let options): changeLiveOptions(id, options)
        case .changeURIs(let id, let removing, let adding, let position, let source):
            changeURIs(id, removing: removing, adding: adding, at: position, by: source)
        case .setMaxConcurrentDownloads(let count):
            configuration.maxConcurrentDownloads = max(count, 1)
            admit()
        case .setMaxConnectionsPerHost(let count):
            configuration.maxConnectionsPerHost = max(count, 0)
            admit()
        case .move(let id, let move): self.move(id, move)
        case .remove(let ids): remove(ids)
        case .multiplexing(let connection, let hostKey): multiplexing(connection, hostKey: hostKey)
        case .responded(let connection, let facts): responded(connection, facts)
        case .wrote(let connection, let written): wrote(connection, totalBytesWritten: written)
        case .bodyDone(let connection, let path): bodyDone(connection, path: path)
        case .finished(let connection): finished(connection)
        case .failed(let connection, let error): connectionFailed(connection, error)
        case .named(let request, let named, let holds, let unnamed):
            write(request, named: named, holdsOffset: holds, unnamed: unnamed)
        case .spilled(let connection, let path): spilled(connection, path: path)
        case .fileFinished(let connection, let id, let outcome): fileFinished(connection, id, outcome)
        case .wholeChecked(let id, let outcome): wholeChecked(id, outcome)
        case .metalinkFollowed(let id, let outcome): metalinkFollowed(id, outcome)
        case .piecesVerified(let id, let bad, let mirror): piecesVerified(id, bad: bad, mirror: mirror)
        case .torrentStarted(let id, let outcome): torrentStarted(id, outcome)
        case .torrentNamed(let id, let naming): torrentNamed(id, naming)
        case .torrentReported(let id, let status): torrentReported(id, status)
        case .torrentFailed(let id, let failure): torrentFailed(id, failure)
        case .timerFired(.retry(let id)): retryDue(id)
        case .timerFired(.settleSpeeds): settleSpeeds()
        case .timerFired(.checkLaggards(let id)): replaceLaggards(of: id)
        case .timerFired(.measureGrowth(let id)): measureGrowth(of: id)
        case .timerFired(.hostHoldOver(let host)): hostHoldOver(host)
        }
        var asked: [QueueEffect] = []
        swap(&asked, &effects)
        return asked
    }

    /// Adds `effect` to what the input being handled asks for.
    mutating func ask(_ effect: QueueEffect) {
        effects.append(effect)
    }

    /// Says `event` (the journal files it, then the queue's owner sees it).
    mutating func emit(_ event: DownloadEvent) {
        effects.append(.emit(event))
    }

    /// Files `download` as its record and says what changed: its state, or else the record. A
    /// download that is no longer active shows no speed.
    mutating func file(_ download: Download) {
        let before = state.downloads.update(download)?.state
        if download.state != .active {
            state.runs[download.id]?.activity.speed = 0
        } else if before != .active {
            // A new attempt: what the last one showed belongs to it.
            state.runs[download.id, default: DownloadRun()].activity = DownloadActivity()
        }
        if let before, before != download.state {
            emit(.stateChanged(download, from: before))
        } else {
            emit(.updated(download))
        }
    }

    /// Follows `change` in the activity of download `id` and says it.
    mutating func show(_ id: GID, _ change: DownloadActivity.Change) {
        state.runs[id, default: DownloadRun()].activity.apply(change)
        emit(.activity(id: id, change))
    }

    /// The options of `download` merged over the queue's defaults, with the built-in values
    /// applied.
    func options(of download: Download) -> EffectiveOptions {
        EffectiveOptions(download.options.merged(over: configuration.defaults))
    }
}
