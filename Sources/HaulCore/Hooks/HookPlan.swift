// MARK: - HookPlan

/// Which hooks a queue's events call for, as aria2 calls them: `start` once when a download
/// begins (again after a pause or a stop, not after each retry of one run), `complete` when it
/// is saved, `error` when it fails for good, `btComplete` when a torrent has every wanted piece
/// and seeds. Pure: events in, invocations out, so each rule is a
/// row of a table test; `HookRunner` runs what it returns.
public struct HookPlan: Sendable {
    public let hooks: DownloadHooks
    /// Downloads whose start hook ran and which have not ended or paused since, as last seen.
    private var running: [GID: Download] = [:]

    /// A plan with no download started yet.
    ///
    /// - Parameter hooks: The commands to call for.
    public init(hooks: DownloadHooks) {
        self.hooks = hooks
    }

    /// The hooks `event` calls for, in order.
    mutating func invocations(for event: DownloadEvent) -> [DownloadHooks.Invocation] {
        switch event {
        case .stateChanged(let download, _):
            switch download.state {
            case .active:
                guard running.updateValue(download, forKey: download.id) == nil else { return [] }
                return hooks.invocation(.start, for: download).map { [$0] } ?? []
            case .complete:
                running[download.id] = nil
                return hooks.invocation(.complete, for: download).map { [$0] } ?? []
            case .failed:
                running[download.id] = nil
                return hooks.invocation(.error, for: download).map { [$0] } ?? []
            case .paused, .cancelled:
                running[download.id] = nil
                return []
            case .queued:
                return []
            }
        case .removed(let id):
            running[id] = nil
            return []
        case .updated(let download):
            // Its name, once known, is what a later hook is given.
            if running[download.id] != nil { running[download.id] = download }
            return []
        case .activity(let id, .seedingStarted):
            return running[id].flatMap { hooks.invocation(.btComplete, for: $0) }.map { [$0] } ?? []
        case .added, .progress, .activity, .moved:
            return []
        }
    }
}
