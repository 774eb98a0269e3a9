// MARK: - HookPlan

/// Which hooks a queue's events call for, as aria2 calls them: `start` once when a download
/// begins (again after a pause or a stop, not after each retry of one run), `complete` when it
/// is saved, `error` when it fails for good. Pure: events in, invocations out, so each rule is a
/// row of a table test; `HookRunner` runs what it returns.
public struct HookPlan: Sendable {
    public let hooks: DownloadHooks
    /// Downloads whose start hook ran and which have not ended or paused since.
    private var running: Set<GID> = []

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
                guard running.insert(download.id).inserted else { return [] }
                return hooks.invocation(.start, for: download).map { [$0] } ?? []
            case .complete:
                running.remove(download.id)
                return hooks.invocation(.complete, for: download).map { [$0] } ?? []
            case .failed:
                running.remove(download.id)
                return hooks.invocation(.error, for: download).map { [$0] } ?? []
            case .paused, .cancelled:
                running.remove(download.id)
                return []
            case .queued:
                return []
            }
        case .removed(let id):
            running.remove(id)
            return []
        case .added, .updated, .progress, .activity, .moved:
            return []
        }
    }
}
