import HaulNet

// MARK: - Automatic splitting

/// A download split automatically (`split-mode=auto`, neither `-s` nor `-x` given) starts on
/// its first connection alone. Its total speed is measured over a window; `SplitGrowth` says
/// whether to add connections (each takes half of the largest part left, as a finished one
/// does), keep them, or stop some; each step's connections are measured once they have all
/// answered, over a window of a few of their answer times. A server that refuses or cuts an
/// added connection settles the count on those still running, and its part goes to them: no
/// attempt of the download is spent on it.
extension QueueCore {
    /// The first window, on the first connection alone (seconds).
    static let firstGrowthWindow = 0.5
    /// The shortest window, and how many of a step's slowest answer times it lasts at least.
    static let shortestGrowthWindow = 0.3
    static let growthWindowAnswers = 2.0
    /// More connections are not worth starting when what is left goes in less than this long
    /// (seconds) at the speed measured.
    static let growthWorthwhile = 1.0

    /// Whether a download with these options splits automatically.
    static func splitsAutomatically(_ options: DownloadOptions) -> Bool {
        (options.splitMode ?? .auto) == .auto && options.split == nil && options.maxConnectionPerServer == nil
    }

    /// Whether an automatic split may grow for a file of `total` bytes: one longer than
    /// `resumable-above` (a shorter body is taken whole, in a file with no name) with room for a
    /// few connections' parts.
    static func mayGrow(_ options: DownloadOptions, total: Int64) -> Bool {
        let minSplit = options.minSplitSize ?? BuiltInOptions.autoMinSplitSize
        return total > (options.resumableAbove ?? BuiltInOptions.resumableAbove) && total >= 4 * minSplit
    }

    /// The connections an automatic split may grow to over `mirrors` mirrors.
    static func automaticLimit(mirrors: Int) -> Int {
        min(BuiltInOptions.autoConnectionsPerServer * max(mirrors, 1), BuiltInOptions.autoConnections)
    }

    /// Starts the growth of a split that begins on its first connection: the first window.
    mutating func beginGrowth(_ id: GID, limit: Int, split: inout Split) {
        let decision = SplitGrowth(limit: limit)
        split.growth = Split.Growth(decision: decision)
        show(id, .splitChoice(decision.reason))
        guard !decision.isSettled else { return }
        split.growth?.windowStart = (clock.uptime, state.downloads[id]?.completed.count ?? 0)
        ask(.schedule(.measureGrowth(id), after: QueueCore.firstGrowthWindow))
    }

    /// The end of a window: the speed over it decides the next step.
    mutating func measureGrowth(of id: GID) {
        guard var split = state.splits[id], var growth = split.growth, let start = growth.windowStart,
            let download = state.downloads[id], !growth.decision.isSettled
        else { return }
        let now = clock.uptime
        let bytes = download.completed.count
        let rate = Double(bytes - start.bytes) / max(now - start.at, 0.001)
        growth.windowStart = nil
        var step = growth.decision.measured(rate: rate)
        if case .add = step, Double(split.total - bytes) < rate * QueueCore.growthWorthwhile {
            growth.decision.finish(running: split.segments.count)
            step = .hold
        }
        split.growth = growth
        switch step {
        case .add(let count):
            let before = Set(split.segments.keys)
            for _ in 0..<count where newWork(&split, download, preferring: 0) {}
            split.growth?.awaited = Set(split.segments.keys).subtracting(before)
            split.growth?.slowestAnswer = 0
            // None could start (too little left to cut): measuring goes on with those there are.
            if split.growth?.awaited.isEmpty == true { startGrowthWindow(id, &split, after: 0) }
        case .remove(let count):
            for key in split.helpers.suffix(count).map(\.id) { retire(key, &split) }
        case .again:
            startGrowthWindow(id, &split, after: 0)
        case .hold:
            break
        }
        state.splits[id] = split
        shareSpeedLimit(id)
        show(id, .splitChoice(growth.decision.reason))
    }

    /// A connection of a growth step answered and writes: once all of the step have, the next
    /// window starts.
    mutating func growthConnectionAnswered(_ key: ConnectionID, _ split: inout Split) {
        guard var growth = split.growth, growth.awaited.remove(key) != nil else { return }
        if let segment = split.segments[key] {
            growth.slowestAnswer = max(growth.slowestAnswer, clock.uptime - segment.startedAt)
        }
        split.growth = growth
        if growth.awaited.isEmpty { startGrowthWindow(key.downloadID, &split, after: growth.slowestAnswer) }
    }

    /// A connection of an automatic split was refused or cut (`why`): the count settles on the
    /// connections still running; its part is a gap the others take.
    mutating func growthPushedBack(_ key: ConnectionID, why: String, _ split: inout Split) {
        guard var growth = split.growth else { return }
        growth.awaited.remove(key)
        growth.windowStart = nil
        growth.decision.pushedBack(running: split.segments.count, why: why)
        split.growth = growth
        show(key.downloadID, .splitChoice(growth.decision.reason))
    }

    /// A few words for a connection that failed before it answered.
    static func pushBackWords(_ error: ConnectionError) -> String {
        switch error.kind {
        case .cannotConnect: "connection refused"
        case .connectionLost: "connection cut"
        case .timedOut: "no answer in time"
        case .tlsHandshake: "TLS handshake failed"
        default: "connection failed"
        }
    }

    private mutating func startGrowthWindow(_ id: GID, _ split: inout Split, after answerTime: Double) {
        guard let growth = split.growth, !growth.decision.isSettled else { return }
        split.growth?.windowStart = (clock.uptime, state.downloads[id]?.completed.count ?? 0)
        let window = max(QueueCore.shortestGrowthWindow, QueueCore.growthWindowAnswers * answerTime)
        ask(.schedule(.measureGrowth(id), after: window))
    }
}
