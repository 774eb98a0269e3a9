import Foundation
import HaulCore
import HaulNet
import HaulTestSupport
import Synchronization

// MARK: - Timers

/// A retry timer that records each wait and runs the work only when the test says so.
final class ManualRetryTimer: RetryTimer {
    private let pending = Mutex<[(Double, @Sendable () -> Void)]>([])
    private let scheduled = Mutex<[Double]>([])

    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        scheduled.withLock { $0.append(seconds) }
        pending.withLock { $0.append((seconds, work)) }
    }

    /// Every wait asked for so far.
    var delays: [Double] { scheduled.withLock { $0 } }

    /// Runs every scheduled work item.
    func fireAll() {
        let items = pending.withLock { items -> [(Double, @Sendable () -> Void)] in
            defer { items.removeAll() }
            return items
        }
        for (_, work) in items { work() }
    }
}

/// A retry timer that waits no time at all.
struct ImmediateRetryTimer: RetryTimer {
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: work)
    }
}

// MARK: - EventRecorder

/// Keeps every event of a queue and the latest copy of each download; wakes waiters when the
/// downloads they wait for reach the state they want.
final class EventRecorder: Sendable {
    private struct State {
        var events: [DownloadEvent] = []
        /// The download an event was about and its activity, as they were after the event (nil
        /// for events about several or none).
        var after: [(download: Download, activity: DownloadActivity)?] = []
        var latest: [GID: Download] = [:]
        var activity: [GID: DownloadActivity] = [:]
        var maximumActive = 0
        /// Each waiter's condition on everything recorded so far, and its signal.
        var waiters: [(isMet: @Sendable (State) -> Bool, signal: Signal)] = []
    }

    private let state = Mutex(State())

    func record(_ event: DownloadEvent) {
        let ready = state.withLock { state -> [Signal] in
            state.events.append(event)
            var changed: Download?
            var about: GID?
            switch event {
            case .added(let downloads): for download in downloads { state.latest[download.id] = download }
            case .stateChanged(let download, _):
                changed = download
                if download.state == .active { state.activity[download.id] = DownloadActivity() }
            case .updated(let download): changed = download
            case .progress(let id, let progress):
                about = id
                changed = state.latest[id]
                changed?.completed = progress.completed
                changed?.totalBytes = progress.totalBytes
                state.activity[id, default: DownloadActivity()].speed = progress.speed
            case .activity(let id, let change):
                about = id
                state.activity[id, default: DownloadActivity()].apply(change)
            case .removed(let id): state.latest.removeValue(forKey: id)
            case .moved: break
            }
            if let changed { state.latest[changed.id] = changed }
            let id = changed?.id ?? about
            state.after.append(
                id.flatMap { id in state.latest[id].map { ($0, state.activity[id] ?? DownloadActivity()) } })
            state.maximumActive = max(state.maximumActive, state.latest.values.filter { $0.state == .active }.count)
            let snapshot = state
            let ready = state.waiters.filter { $0.isMet(snapshot) }
            state.waiters.removeAll { waiter in ready.contains { $0.signal === waiter.signal } }
            return ready.map(\.signal)
        }
        for signal in ready { signal.fire() }
    }

    var events: [DownloadEvent] { state.withLock { $0.events } }
    /// How many events were recorded so far: a mark for `wait(after:for:until:)`.
    var eventCount: Int { state.withLock { $0.events.count } }
    var maximumActive: Int { state.withLock { $0.maximumActive } }
    func latest(_ id: GID) -> Download? { state.withLock { $0.latest[id] } }
    /// What download `id`'s attempt showed last (speed, connections, response).
    func activity(_ id: GID) -> DownloadActivity? { state.withLock { $0.activity[id] } }

    /// Waits until every download in `ids` satisfies `until` (default: a final state).
    func wait(for ids: [GID], until: @escaping @Sendable (Download) -> Bool = { $0.state.isFinal }) async -> Bool {
        await wait { state in ids.allSatisfy { state.latest[$0].map(until) ?? false } }
    }

    /// Waits until an event recorded after the first `mark` events shows download `id`
    /// satisfying `until` (so a state it had before the mark does not count).
    func wait(after mark: Int, for id: GID, until: @escaping @Sendable (Download) -> Bool) async -> Bool {
        await wait(after: mark, for: id) { download, _ in until(download) }
    }

    /// Waits until an event recorded after the first `mark` events shows download `id` and
    /// what its attempt shows satisfying `until`.
    func wait(
        after mark: Int, for id: GID, until: @escaping @Sendable (Download, DownloadActivity) -> Bool
    ) async -> Bool {
        await wait { state in
            state.after.dropFirst(mark).contains { seen in
                seen.map { $0.download.id == id && until($0.download, $0.activity) } ?? false
            }
        }
    }

    /// Whether any event showed download `id` and its activity satisfying `condition`.
    func showed(_ id: GID, _ condition: (Download, DownloadActivity) -> Bool) -> Bool {
        state.withLock { state in
            state.after.contains { seen in
                seen.map { $0.download.id == id && condition($0.download, $0.activity) } ?? false
            }
        }
    }

    /// Waits until the latest copies of the downloads, taken together, satisfy `isMet`.
    func wait(untilLatest isMet: @escaping @Sendable ([GID: Download]) -> Bool) async -> Bool {
        await wait { state in isMet(state.latest) }
    }

    private func wait(until isMet: @escaping @Sendable (State) -> Bool) async -> Bool {
        let signal = Signal()
        let already = state.withLock { state -> Bool in
            if isMet(state) { return true }
            state.waiters.append((isMet, signal))
            return false
        }
        if already { return true }
        return await signal.wait(seconds: 60)
    }
}

// MARK: - QueueHarness

/// A `DownloadQueue` saving into a scratch directory, with its events recorded.
struct QueueHarness {
    let directory: URL
    let queue: DownloadQueue
    let recorder = EventRecorder()

    init(
        maxConcurrent: Int = 5, maxPerHost: Int = 0, defaults: DownloadOptions = DownloadOptions(),
        timer: any RetryTimer = ImmediateRetryTimer(), patience: SegmentPlanner.Patience = SegmentPlanner.Patience(),
        netrc: Netrc? = nil, tls: TLSOptions = TLSOptions(), engine: ConnectionEngine = .shared
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-queue-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = maxConcurrent
        configuration.maxConnectionsPerHost = maxPerHost
        configuration.defaults = defaults
        configuration.directory = directory.path
        configuration.patience = patience
        configuration.netrc = netrc
        configuration.tls = tls
        let recorder = recorder
        queue = DownloadQueue(configuration: configuration, engine: engine, timer: timer) { recorder.record($0) }
    }

    /// Adds `url` (and its mirrors) with the given option lines and returns its id.
    func add(_ url: URL, mirrors: [URL] = [], _ options: [(String, String)] = []) throws -> GID {
        var parsed = DownloadOptions()
        for (name, value) in options { try parsed.set(name, value) }
        return queue.add(QueueEntry(uris: ([url] + mirrors).map(\.absoluteString), options: parsed))
    }

    func contents(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}
