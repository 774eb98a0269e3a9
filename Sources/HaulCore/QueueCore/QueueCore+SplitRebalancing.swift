import HaulNet
import HaulText

// MARK: - Work for the connections of a split download

/// How a split download keeps every connection busy until the end, with no slow tail:
///
/// - a connection that finishes takes a gap (a range no one fetches), else half of the largest
///   remaining segment (a steal), else the second half of what the segment that will finish
///   last has left (a tail race: both fetch those bytes; whichever gets there first wins);
/// - each finished connection takes its new work from its own mirror, so a faster mirror
///   finishes sooner and gets more of the work;
/// - every `Patience.checkEvery` seconds, a connection that has stalled or is far slower than
///   the others is dropped and a new connection takes what it had left.
extension QueueCore {
    // MARK: - Progress

    /// Records what a connection of a split download has written; returns the range it covers.
    mutating func recordSegmentProgress(_ id: ConnectionID, written: Int64, now: Double) -> Range<Int64>? {
        guard var split = state.split(id.downloadID), var segment = split.segments[id] else { return nil }
        if split.growth?.decision.isSettled == false {
            growthObserved(id, previous: segment, written: written, now: now, &split)
        }
        if written > segment.written { segment.lastWriteAt = now }
        if written > 0, segment.firstByteAt == nil {
            segment.firstByteAt = now
            if let victim = segment.stolenFrom { limit(victim, to: segment.start, &split) }
            segment.stolenFrom = nil
        }
        segment.written = written
        var sample = segment.sample ?? SpeedSample(bytes: written, at: now)
        sample.measure(&segment.speed, bytes: written, at: now)
        segment.sample = sample
        split.segments[id] = segment
        state.setSplit(id.downloadID, split)
        return segment.start..<segment.start.adding(saturating: written)
    }

    /// The running connections of a split download as the detail view shows them.
    func liveSegments(_ id: GID) -> [DownloadActivity.Segment] {
        guard let split = state.split(id) else { return [] }
        return split.segments.values.sorted { $0.start < $1.start }.map { segment in
            DownloadActivity.Segment(
                range: segment.start..<segment.end, written: segment.next - segment.start,
                mirror: split.mirrorLabels[segment.mirror], speed: segment.speed)
        }
    }

    // MARK: - Endings

    /// A connection of a split download ended well. Settles a race it was in, gives it new work
    /// on its own mirror (see the extension's comment), and returns whether the whole file is
    /// now done (every byte written, no connection left).
    mutating func segmentFinished(_ id: ConnectionID) -> Bool {
        let downloadID = id.downloadID
        guard var split = state.split(downloadID), let download = state.downloads[downloadID] else { return true }
        let connection = state.connection(id)
        let finished = split.segments.removeValue(forKey: id)
        split.helpers.removeAll { $0.id == id }
        if let finished, let rival = finished.rival { settleRace(&split, winner: finished, loser: rival) }
        if let finished { verifyPieces(of: finished, download) }
        newWork(&split, download, preferring: finished?.mirror)
        keepSlotRunning(&split, downloadID, last: connection)
        state.setSplit(downloadID, split)
        shareSpeedLimit(downloadID)
        return split.segments.isEmpty && download.completed.covers(length: split.total)
    }

    /// A connection that won a tail race: if it was the racer (it fetched the tail), the victim
    /// now ends where the racer began; if it was the victim (it got to the end first), the
    /// racer is stopped.
    private mutating func settleRace(_ split: inout Split, winner: Split.Segment, loser: ConnectionID) {
        guard var other = split.segments[loser] else { return }
        if winner.start > other.start {
            other.end = min(other.end, winner.start)
            other.rival = nil
            split.segments[loser] = other
            limit(loser, to: other.end, &split)
        } else {
            retire(loser, &split)
        }
    }

    /// Starts work for a connection that is free, on `preferred` mirror if it has room: a gap,
    /// else a steal, else a tail race; false when there is nothing worth starting.
    @discardableResult
    mutating func newWork(_ split: inout Split, _ download: Download, preferring preferred: Int?) -> Bool {
        guard let mirror = split.mirror(preferring: preferred) else { return false }
        if let gap = split.gaps(completed: download.completed).first {
            startHelper(for: gap, mirror: mirror, of: download.id, split: &split)
            return true
        }
        // Segments already raced are left alone: their tails are fetched twice already.
        let (keys, running) = split.planned(now: clock.uptime, excludingRaces: true)
        if let steal = split.planner.steal(from: running) {
            let victim = keys[steal.victim]
            split.segments[victim]?.end = steal.newEnd
            let thief = startHelper(for: steal.range, mirror: mirror, of: download.id, split: &split)
            split.segments[thief]?.stolenFrom = victim
            return true
        }
        guard let race = split.planner.tailToRace(in: running) else { return false }
        let victim = keys[race.victim]
        let racer = startHelper(for: race.range, mirror: mirror, of: download.id, split: &split)
        split.segments[victim]?.rival = racer
        split.segments[racer]?.rival = victim
        return true
    }

    // MARK: - Laggards

    /// Checks download `id`'s connections for laggards every `checkEvery` seconds while it is
    /// split (one watch per download).
    mutating func watchForLaggards(_ id: GID) {
        guard state.runs[id]?.watchedForLaggards != true else { return }
        state.runs[id, default: DownloadRun()].watchedForLaggards = true
        ask(.schedule(.checkLaggards(id), after: configuration.patience.checkEvery))
    }

    /// Drops the connections of `id` that stalled or lag far behind the others; a new
    /// connection, on the least used mirror, takes what each had left.
    mutating func replaceLaggards(of id: GID) {
        state.runs[id]?.watchedForLaggards = false
        guard var split = state.split(id), let download = state.downloads[id] else { return }
        let (keys, running) = split.planned(now: clock.uptime)
        var replaced = false
        for index in split.planner.laggards(in: running) {
            retire(keys[index], &split)
            if newWork(&split, download, preferring: nil) { replaced = true }
        }
        keepSlotRunning(&split, id, last: nil)
        state.setSplit(id, split)
        if replaced { shareSpeedLimit(id) }
        watchForLaggards(id)
    }

    // MARK: - Pieces

    /// Tells the connection of segment `key` to stop at `offset`, unless it stops sooner already.
    private mutating func limit(_ key: ConnectionID, to offset: Int64, _ split: inout Split) {
        guard let limit = split.segments[key]?.limit, limit > offset else { return }
        split.segments[key]?.limit = offset
        ask(.stop(key, atFileOffset: offset))
    }

    /// Stops the connection of segment `key` and forgets it.
    mutating func retire(_ key: ConnectionID, _ split: inout Split) {
        split.forget(key)
        ask(.cancel(key))
    }

    /// The download's slot (`Attempt.holder`) stays with a running connection: when its
    /// holder has finished or was retired, a helper takes it over; with none left, `last` (the
    /// connection that just finished) keeps it, to end the attempt.
    mutating func keepSlotRunning(_ split: inout Split, _ id: GID, last: PlannedConnection?) {
        guard let holder = state.attempts[id]?.holder, split.segments[holder.id] == nil else { return }
        if !split.helpers.isEmpty {
            state.moveSlot(of: id, to: split.helpers.removeFirst())
        } else if let last {
            state.moveSlot(of: id, to: last)
        }
    }
}
