import HaulNet

// MARK: - Automatic splitting

/// A download split automatically (`split-mode=auto`, neither `-s` nor `-x` given) starts on
/// its first connection; at its first byte a first step adds 3 (each takes half of the largest
/// part left, as a finished one does), and while they connect the first connection, still alone,
/// is measured until its rate is known (`GrowthMeter`). Each step's new connections are measured
/// at `GrowthMeter.comparedAge` since their first byte, against the first one at that age;
/// `SplitGrowth` then says whether to add more, keep them, or stop some. A server that refuses or cuts an added connection before its first byte
/// settles the count on those still running, and its part goes to them: no attempt of the
/// download is spent on it. A download resumed in the same run starts at the count it settled on.
extension QueueCore {
    /// How often a growing split is sampled (seconds).
    static let growthTick = 0.05
    /// A connection of a step silent this long past the age it is measured at has nothing more
    /// to report for that age (the engine reports at least every 100 ms while bytes come): its
    /// bytes then are its bytes at that age (a server that sends in bursts, once a second).
    static let growthQuiet = 0.15
    /// How long a step waits for its connections' first bytes beyond the first one's time alone
    /// (seconds); one that sent nothing by then counts as giving nothing.
    static let growthPatience = 3.0
    /// More connections are not worth starting when what is left goes in less than this long
    /// (seconds) at the speed measured.
    static let growthWorthwhile = 1.0

    /// Starts the growth of a split that begins on its `first` connection, which took
    /// `answerTime` seconds to answer; one resumed in this run starts at the count it settled on.
    mutating func beginGrowth(
        _ id: GID, first: ConnectionID, answerTime: Double, limit: Int, split: inout Split
    ) {
        let speedLimit = state.downloads[id].flatMap { options(of: $0).maxDownloadLimit?.cap }
        var decision = SplitGrowth(limit: limit, speedLimit: speedLimit)
        if let settled = state.runs[id]?.settledSplit, settled > 1 {
            decision = SplitGrowth(
                limit: limit, speedLimit: speedLimit, settledOn: settled, "\(settled) connections: as settled before")
        } else if let taken = split.firstHost.flatMap({ state.origins[$0].splitConnections }) {
            decision = SplitGrowth(
                limit: limit, speedLimit: speedLimit, settledOn: taken,
                "\(SplitGrowth.count(taken)): the server refused more before")
        }
        split.growth = Split.Growth(decision: decision, meter: GrowthMeter(answerTime: answerTime), first: first)
        showGrowth(id, decision)
        if decision.isSettled {
            guard let download = state.downloads[id], decision.connections > 1 else { return }
            for _ in 1..<decision.connections where newWork(&split, download, preferring: 0) {}
            return
        }
        ask(.schedule(.measureGrowth(id), after: QueueCore.growthTick))
    }

    /// A tick of a growing split: takes the first step once the first byte came, and each next
    /// step once the last one's connections are measured (on their progress messages, or here
    /// when they are quiet).
    mutating func measureGrowth(of id: GID) {
        guard var split = state.split(id), var growth = split.growth, let download = state.downloads[id],
            !growth.decision.isSettled
        else { return }
        let now = clock.uptime
        if growth.meter.knownAge == nil {
            if let first = split.segments[growth.first] {
                // Quiet (a server that sends in bursts): what it has is its bytes now.
                if let firstByte = first.firstByteAt, now - first.lastWriteAt >= QueueCore.growthQuiet {
                    sampleFirst(&growth, age: now - firstByte, bytes: first.written)
                }
            } else {
                sampleFirst(&growth, age: nil, bytes: 0)
            }
        }
        let measured =
            growth.decision.connections == 1
            ? firstStepRate(growth, split, now: now) : stepRate(&growth, split, now: now)
        guard let rate = measured else {
            split.growth = growth
            state.setSplit(id, split)
            return ask(.schedule(.measureGrowth(id), after: QueueCore.growthTick))
        }
        // What the step's connections fetch themselves, each: under a speed limit each gets its
        // share of the limit, and together they reach it or not.
        let direct = Double(split.segments.count) * GrowthMeter.meanRate(of: growth.measured)
        var step = growth.decision.measured(rate: rate, total: direct)
        if case .add = step, Double(split.total - download.completed.count) < rate * QueueCore.growthWorthwhile {
            growth.decision.finish(running: split.segments.count)
            step = .hold
        }
        growth.measured = []
        growth.stepStartedAt = now
        split.growth = growth
        switch step {
        case .add(let count):
            let before = Set(split.segments.keys)
            for _ in 0..<count where newWork(&split, download, preferring: 0) {}
            split.growth?.awaited = Set(split.segments.keys).subtracting(before)
        case .remove(let count):
            for key in split.helpers.suffix(count).map(\.id) { retire(key, &split) }
        case .again, .hold:
            break
        }
        state.setSplit(id, split)
        shareSpeedLimit(id)
        showGrowth(id, growth.decision)
        if !growth.decision.isSettled { ask(.schedule(.measureGrowth(id), after: QueueCore.growthTick)) }
    }

    /// Shows an automatic split's choice; a settled one is kept for the download's next attempt
    /// in this run.
    private mutating func showGrowth(_ id: GID, _ decision: SplitGrowth) {
        if decision.isSettled { state.runs[id, default: DownloadRun()].settledSplit = decision.connections }
        show(id, .splitChoice(decision.reason))
    }

    /// What a connection of a growing split wrote (`written` bytes at `now`; `previous` its
    /// segment before): the first connection's progress until its rate is known, and each
    /// connection of the last step's bytes at `GrowthMeter.comparedAge`, between the two
    /// progress messages around that age. Measured on progress messages, not on ticks: a
    /// connection's bytes reach the file (and the core) in steps of up to 100 ms, which a tick
    /// would sample at any point of a step.
    func growthObserved(
        _ id: ConnectionID, previous: Split.Segment, written: Int64, now: Double, _ split: inout Split
    ) {
        guard var growth = split.growth, !growth.decision.isSettled,
            let firstByte = previous.firstByteAt ?? (written > 0 ? now : nil)
        else { return }
        let age = now - firstByte
        if id == growth.first { sampleFirst(&growth, age: age, bytes: written) }
        guard growth.awaited.contains(id), let compared = growth.meter.comparedAge, age >= compared else {
            return split.growth = growth
        }
        let before = GrowthMeter.Point(
            age: previous.firstByteAt.map { previous.lastWriteAt - $0 } ?? 0, bytes: previous.written)
        growth.measured.append(
            GrowthMeter.Point.between(before, GrowthMeter.Point(age: age, bytes: written), at: compared))
        growth.awaited.remove(id)
        split.growth = growth
    }

    /// Gives the meter the first connection's `bytes` at `age` (nil: it ended) until its rate is
    /// known; the first step is then judged against that rate.
    private func sampleFirst(_ growth: inout Split.Growth, age: Double?, bytes: Int64) {
        guard growth.meter.knownAge == nil else { return }
        let known = age.map { growth.meter.soloSample(age: $0, bytes: bytes) } ?? growth.meter.soloEnded()
        if known, let rate = growth.meter.soloRate { growth.decision.alone(rate: rate) }
    }

    /// The first connection's rate so far, once it is `GrowthMeter.firstStepAge` old (at its
    /// first byte where a round trip is longer than the meter's shortest window): the first step
    /// is taken then (to 4, which even a link one connection fills may have for a moment), while
    /// its rate alone comes in as the added connections connect. A rate so far over less than a
    /// window counts the window.
    private func firstStepRate(_ growth: Split.Growth, _ split: Split, now: Double) -> Double? {
        if let known = growth.meter.soloRate { return known }
        guard let first = split.segments[growth.first], let firstByte = first.firstByteAt, first.written > 0,
            now - firstByte >= growth.meter.firstStepAge
        else { return nil }
        return Double(first.written) / max(now - firstByte, growth.meter.window)
    }

    /// The total rate the last step's connections say the split has (each connection's share of
    /// a lone one, times the lone rate, times the connections), once all are measured: a quiet
    /// one (no bytes since the age compared) at its bytes now, one that sent nothing within
    /// `growthPatience` at none.
    private func stepRate(_ growth: inout Split.Growth, _ split: Split, now: Double) -> Double? {
        guard let age = growth.meter.comparedAge, let lone = growth.meter.soloRate else { return nil }
        for key in growth.awaited {
            guard let segment = split.segments[key] else {
                growth.awaited.remove(key)
                continue
            }
            guard let firstByte = segment.firstByteAt, now - firstByte >= age + QueueCore.growthQuiet,
                segment.lastWriteAt - firstByte <= age
            else { continue }
            growth.measured.append(GrowthMeter.Point(age: age, bytes: segment.written))
            growth.awaited.remove(key)
        }
        if !growth.awaited.isEmpty {
            guard now - growth.stepStartedAt >= age + QueueCore.growthPatience else { return nil }
            // Those that sent nothing in all that time give nothing.
            growth.measured += growth.awaited.map { _ in GrowthMeter.Point(age: age, bytes: 0) }
            growth.awaited = []
        }
        guard let share = growth.meter.share(of: growth.measured) else { return nil }
        // A step whose connections sent nothing is slower than the one before: a byte a second.
        return max(Double(max(split.segments.count, 1)) * share * lone, 1)
    }

    /// A connection of an automatic split was refused or cut before its first byte (`why`):
    /// the count settles on the connections still running; its part is a gap the others take.
    mutating func growthPushedBack(_ key: ConnectionID, startedAt: Double, why: String, _ split: inout Split) {
        guard var growth = split.growth else { return }
        growth.awaited.remove(key)
        growth.decision.pushedBack(running: split.segments.count, why: why, startedAt: startedAt, now: clock.uptime)
        split.growth = growth
        if let host = split.firstHost { state.splitRefused(host, beyond: growth.decision.connections) }
        showGrowth(key.downloadID, growth.decision)
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
}
