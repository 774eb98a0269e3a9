import Foundation
import HaulNet

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
///
/// Everything here runs under the queue's lock.
extension DownloadQueue {
    // MARK: - Progress

    /// Records what a connection of a split download has written.
    func recordSegmentProgress(
        _ state: inout State, _ attempt: DownloadConnection, written: Int64, now: Double
    ) -> Range<Int64>? {
        guard var split = state.splits[attempt.downloadID], var segment = split.segments[ObjectIdentifier(attempt)]
        else { return nil }
        if written > segment.written { segment.lastWriteAt = now }
        segment.written = written
        var sample = segment.sample ?? SpeedSample(bytes: written, at: now)
        sample.smooth(&segment.speed, bytes: written, at: now)
        segment.sample = sample
        split.segments[ObjectIdentifier(attempt)] = segment
        state.splits[attempt.downloadID] = split
        return segment.start..<(segment.start + written)
    }

    /// The running connections of a split download as the detail view shows them.
    func liveSegments(_ state: State, _ id: String) -> [Download.LiveSegment] {
        guard let split = state.splits[id] else { return [] }
        return split.segments.values.sorted { $0.start < $1.start }.map { segment in
            Download.LiveSegment(
                range: segment.start..<segment.end, written: segment.next - segment.start,
                mirror: split.mirrorLabels[segment.mirror], speed: segment.speed)
        }
    }

    // MARK: - Endings

    /// A connection of a split download ended well. Settles a race it was in, gives it new work
    /// on its own mirror (see the extension's comment), and returns whether the whole file is
    /// now done (every byte written, no connection left) and the connections to start.
    func segmentFinished(
        _ state: inout State, _ attempt: DownloadConnection
    ) -> (done: Bool, toStart: [DownloadConnection]) {
        let id = attempt.downloadID
        guard var split = state.splits[id], let download = state.downloads[id] else { return (true, []) }
        let finished = split.segments.removeValue(forKey: ObjectIdentifier(attempt))
        split.helpers.removeAll { $0 === attempt }
        if let finished, let rival = finished.rival { settleRace(&state, &split, id, winner: finished, loser: rival) }
        let toStart =
            newWork(&split, download, holder: state.connections[id], preferring: finished?.mirror).map { [$0] } ?? []
        keepSlotRunning(&state, &split, id, last: attempt)
        state.splits[id] = split
        shareSpeedLimit(state, id)
        let done = split.segments.isEmpty && download.completed.covers(length: split.total)
        return (done, toStart)
    }

    /// A connection that won a tail race: if it was the racer (it fetched the tail), the victim
    /// now ends where the racer began; if it was the victim (it got to the end first), the
    /// racer is stopped.
    private func settleRace(
        _ state: inout State, _ split: inout Split, _ id: String, winner: Split.Segment, loser: ObjectIdentifier
    ) {
        guard var other = split.segments[loser] else { return }
        if winner.start > other.start {
            other.end = min(other.end, winner.start)
            other.rival = nil
            split.segments[loser] = other
            split.connection(loser, holder: state.connections[id])?.limitDownload(toFileOffset: other.end)
        } else {
            retire(loser, &state, &split, id)
        }
    }

    /// Work for a connection that is free, on `preferred` mirror if it has room: a gap, else a
    /// steal, else a tail race; nil when there is nothing worth starting. `holder` holds the
    /// download's slot.
    func newWork(
        _ split: inout Split, _ download: Download, holder: DownloadConnection?,
        preferring preferred: Int?
    ) -> DownloadConnection? {
        guard let path = download.partialPath, let mirror = split.mirror(preferring: preferred) else { return nil }
        if let gap = split.gaps(completed: download.completed).first {
            return makeHelper(for: gap, mirror: mirror, of: download, split: &split, path: path)
        }
        // Segments already raced are left alone: their tails are fetched twice already.
        let (keys, running) = split.planned(now: uptime(), excludingRaces: true)
        if let steal = split.planner.steal(from: running) {
            let victim = keys[steal.victim]
            split.segments[victim]?.end = steal.newEnd
            split.connection(victim, holder: holder)?.limitDownload(toFileOffset: steal.newEnd)
            return makeHelper(for: steal.range, mirror: mirror, of: download, split: &split, path: path)
        }
        guard let race = split.planner.tailToRace(in: running) else { return nil }
        let victim = keys[race.victim]
        let racer = makeHelper(for: race.range, mirror: mirror, of: download, split: &split, path: path)
        split.segments[victim]?.rival = ObjectIdentifier(racer)
        split.segments[ObjectIdentifier(racer)]?.rival = victim
        return racer
    }

    // MARK: - Laggards

    /// Checks download `id`'s connections for laggards every `checkEvery` seconds while it is
    /// split (one watch per download).
    func watchForLaggards(_ state: inout State, _ id: String) {
        guard state.watchedSplits.insert(id).inserted else { return }
        callbackQueue.asyncAfter(deadline: .now() + configuration.patience.checkEvery) { [weak self] in
            self?.replaceLaggards(of: id)
        }
    }

    /// Drops the connections of `id` that stalled or lag far behind the others; a new
    /// connection, on the least used mirror, takes what each had left.
    private func replaceLaggards(of id: String) {
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                state.watchedSplits.remove(id)
                guard var split = state.splits[id], let download = state.downloads[id] else { return [] }
                let (keys, running) = split.planned(now: uptime())
                var toStart: [DownloadConnection] = []
                for index in split.planner.laggards(in: running) {
                    retire(keys[index], &state, &split, id)
                    if let replacement = newWork(&split, download, holder: state.connections[id], preferring: nil) {
                        toStart.append(replacement)
                    }
                }
                keepSlotRunning(&state, &split, id, last: nil)
                state.splits[id] = split
                if !toStart.isEmpty { shareSpeedLimit(state, id) }
                watchForLaggards(&state, id)
                return toStart
            })
    }

    // MARK: - Pieces

    /// Stops the connection of segment `key` and forgets it.
    private func retire(_ key: ObjectIdentifier, _ state: inout State, _ split: inout Split, _ id: String) {
        let connection = split.connection(key, holder: state.connections[id])
        split.forget(key)
        connection?.cancel()
    }

    /// The download's slot (`State.connections`) stays with a running connection: when its
    /// holder has finished or was retired, a helper takes it over; with none left, `last` (the
    /// connection that just finished) keeps it, to end the attempt.
    func keepSlotRunning(_ state: inout State, _ split: inout Split, _ id: String, last: DownloadConnection?) {
        guard let holder = state.connections[id], split.segments[ObjectIdentifier(holder)] == nil else { return }
        if !split.helpers.isEmpty {
            state.moveSlot(of: id, to: split.helpers.removeFirst())
        } else if let last {
            state.moveSlot(of: id, to: last)
        }
    }
}
