import Foundation
import HaulNet

// MARK: - Split downloads

/// One file over several connections (`-x` above 1): the first response shows the length and
/// the validator; the `SegmentPlanner` splits what is missing; the first connection is bounded
/// to its segment and helpers fetch the others with `Range: bytes=a-b`, each into the same
/// partial file. A helper whose answer disagrees (no 206, another length or validator) stops
/// the split and restarts the file on one connection. A connection that finishes takes over a
/// gap left by a failed one, else half of the largest remaining segment.
extension DownloadQueue {
    /// The split state of one download.
    struct Split {
        var planner: SegmentPlanner
        let total: Int64
        let validator: String?
        let request: Request
        var helpers: [DownloadConnection] = []
        /// Each connection's segment: where it started, where it must end, what it wrote.
        var segments: [ObjectIdentifier: Segment] = [:]

        struct Segment {
            let start: Int64
            var end: Int64
            var written: Int64 = 0
        }
    }

    /// Connections one download may use: `-s`, capped by `-x` (one server until mirrors).
    func connectionLimit(_ download: Download) -> Int {
        let options = download.options.merged(over: configuration.defaults)
        return min(options.split ?? 5, options.maxConnectionPerServer ?? 1)
    }

    /// On the first connection's response: plans the split when it is worth it and returns the
    /// first connection's end and the helpers to start, or nil to stay on one connection.
    func planSplit(_ state: inout State, _ download: Download, primary: DownloadConnection, response: Response,
                   offset: Int64, total: Int64) -> (end: Int64, helpers: [DownloadConnection])? {
        let limit = connectionLimit(download)
        let validator = response.entityTag ?? response.lastModified
        guard limit > 1, total > 0, validator != nil, !state.noSplit.contains(download.id),
              response.statusCode == 206 || response.headers["Accept-Ranges"]?.lowercased() == "bytes",
              let path = download.partialPath else { return nil }
        let options = download.options.merged(over: configuration.defaults)
        let planner = SegmentPlanner(length: total, minSplitSize: options.minSplitSize ?? 20 << 20, maxConnections: limit)
        var completed = offset == 0 ? ByteRanges() : download.completed
        completed.insert(0..<offset)
        let ranges = planner.initialRanges(completed: completed)
        guard ranges.count > 1, ranges[0].lowerBound == offset else { return nil }
        var split = Split(planner: planner, total: total, validator: validator, request: primary.currentRequest)
        split.segments[ObjectIdentifier(primary)] = Split.Segment(start: offset, end: ranges[0].upperBound)
        let helpers = ranges.dropFirst().map { makeHelper(for: $0, of: download, split: &split, path: path) }
        state.splits[download.id] = split
        return (ranges[0].upperBound, helpers)
    }

    /// A connection for `range` of a split download, filed in `split`.
    private func makeHelper(for range: Range<Int64>, of download: Download, split: inout Split, path: String) -> DownloadConnection {
        var request = split.request
        request.byteRange = ByteRange(from: range.lowerBound, through: range.upperBound - 1)
        request.headers.remove("If-Range")
        let helper = DownloadConnection(request: request, downloadID: download.id, hostKey: DownloadQueue.hostKey(request.url.absoluteString),
                                        resumeOffset: range.lowerBound, expectedValidator: split.validator, isHelper: true,
                                        queue: self, callbackQueue: callbackQueue, engine: engine)
        split.helpers.append(helper)
        split.segments[ObjectIdentifier(helper)] = Split.Segment(start: range.lowerBound, end: range.upperBound)
        return helper
    }

    /// Whether `attempt` is one of the running connections of its download.
    func isCurrent(_ attempt: DownloadConnection, in state: State) -> Bool {
        state.connections[attempt.downloadID] === attempt
            || state.splits[attempt.downloadID]?.helpers.contains { $0 === attempt } == true
    }

    // MARK: - Helper responses

    /// A helper's response: its segment is written if the answer agrees with the first one's
    /// (206 at the segment's start, same length and validator); otherwise the split stops and
    /// the file restarts on one connection.
    func helperResponse(_ state: inout State, _ helper: DownloadConnection, _ response: Response) -> (ResponseDisposition, [DownloadConnection]) {
        let id = helper.downloadID
        guard let split = state.splits[id], let segment = split.segments[ObjectIdentifier(helper)],
              let path = state.downloads[id]?.partialPath else { return (.cancel, []) }
        let validator = response.entityTag ?? response.lastModified
        if case .write(let offset, let total) = ResumeRule.judge(response, resumeOffset: segment.start, validator: split.validator),
           offset == segment.start, total == split.total, validator == split.validator {
            return (.becomeDownload(DownloadTarget(path: path, offset: segment.start, end: segment.end, keepsTail: true)), [])
        }
        return (.cancel, restartUnsplit(&state, id, reason: "a second connection got a different answer"))
    }

    /// Stops every connection of a split download and queues it again on one connection, from
    /// zero: never splice two versions.
    func restartUnsplit(_ state: inout State, _ id: String, reason: String) -> [DownloadConnection] {
        state.noSplit.insert(id)
        state.endAttempt(id)?.cancel()
        guard var download = state.downloads[id] else { return [] }
        download.completed.removeAll()
        download.validator = nil
        download.lastError = reason
        download.state = .queued
        state.downloads[id] = download
        state.markAdmittable(id)
        emit(.changed(download))
        return admit(&state)
    }

    // MARK: - Progress and endings

    /// Records what a connection of a split download has written.
    func recordSegmentProgress(_ state: inout State, _ attempt: DownloadConnection, written: Int64) -> Range<Int64>? {
        guard var split = state.splits[attempt.downloadID], var segment = split.segments[ObjectIdentifier(attempt)] else { return nil }
        segment.written = written
        split.segments[ObjectIdentifier(attempt)] = segment
        state.splits[attempt.downloadID] = split
        return segment.start..<(segment.start + written)
    }

    /// A connection of a split download ended well. Returns whether the whole file is now done
    /// (every byte written, no connection left) and the connections to start: one for a gap, or
    /// one taking half of the largest remaining segment.
    func segmentFinished(_ state: inout State, _ attempt: DownloadConnection) -> (done: Bool, toStart: [DownloadConnection]) {
        let id = attempt.downloadID
        guard var split = state.splits[id], let download = state.downloads[id], let path = download.partialPath else {
            return (true, [])
        }
        split.segments.removeValue(forKey: ObjectIdentifier(attempt))
        split.helpers.removeAll { $0 === attempt }
        var toStart: [DownloadConnection] = []
        let running = split.segments.map { key, segment in
            SegmentPlanner.Segment(id: key.hashValue, start: segment.start, next: segment.start + segment.written, end: segment.end)
        }
        let taken = running.map { $0.next..<$0.end }
        let gap = download.completed.gaps(upTo: split.total).lazy.compactMap { gap in
            DownloadQueue.firstUntaken(in: gap, taken: taken)
        }.first
        if let gap {
            toStart.append(makeHelper(for: gap, of: download, split: &split, path: path))
        } else if let steal = split.planner.steal(from: running),
                  let victim = split.segments.first(where: { $0.key.hashValue == steal.victim }) {
            split.segments[victim.key]?.end = steal.newEnd
            let victimConnection = ([state.connections[id]] + split.helpers).compactMap { $0 }.first { ObjectIdentifier($0) == victim.key }
            victimConnection?.limitDownload(toFileOffset: steal.newEnd)
            toStart.append(makeHelper(for: steal.range, of: download, split: &split, path: path))
        }
        if state.connections[id] === attempt, !split.helpers.isEmpty {
            // The first connection holds the download's slot: a helper takes its place.
            state.connections[id] = split.helpers.removeFirst()
        }
        state.splits[id] = split
        let done = split.segments.isEmpty && download.completed.covers(length: split.total)
        return (done, toStart)
    }

    /// The first part of `gap` that no running segment is fetching, if any.
    static func firstUntaken(in gap: Range<Int64>, taken: [Range<Int64>]) -> Range<Int64>? {
        var free = ByteRanges([gap])
        var covered = ByteRanges()
        for range in taken where !range.isEmpty { covered.insert(range) }
        for range in covered.ranges {
            let before = free.ranges
            free = ByteRanges(before.flatMap { piece -> [Range<Int64>] in
                guard piece.overlaps(range) else { return [piece] }
                return [piece.lowerBound..<max(piece.lowerBound, range.lowerBound),
                        min(piece.upperBound, range.upperBound)..<piece.upperBound].filter { !$0.isEmpty }
            })
        }
        return free.ranges.first
    }
}
