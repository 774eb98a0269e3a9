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

    /// On the first connection's response: plans the split when it is worth it and returns the
    /// first connection's end and the helpers to start, or nil to stay on one connection.
    func planSplit(_ state: inout State, _ download: Download, primary: DownloadConnection, response: Response,
                   offset: Int64, total: Int64) -> (end: Int64, helpers: [DownloadConnection])? {
        let options = download.options.merged(over: configuration.defaults)
        // Connections: `-s`, capped by `-x` (one server until mirrors).
        let limit = min(options.split ?? 5, options.maxConnectionPerServer ?? 1)
        let validator = response.validator
        guard limit > 1, total > 0, validator != nil, !state.noSplit.contains(download.id),
              response.statusCode == 206 || response.headers["Accept-Ranges"]?.lowercased() == "bytes",
              let path = download.partialPath else { return nil }
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
        let validator = response.validator
        if case .write(let offset, let total) = ResumeRule.judge(response, resumeOffset: segment.start, validator: split.validator),
           offset == segment.start, total == split.total, validator == split.validator {
            return (.becomeDownload(DownloadTarget(path: path, offset: segment.start, end: segment.end, keepsTail: true)), [])
        }
        // Never splice two versions: every connection stops and the file restarts on one.
        state.noSplit.insert(id)
        return (.cancel, startOver(&state, id, reason: "a second connection got a different answer", refundAttempt: false))
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
        // The planner knows a segment by its index in `keys`.
        let keys = Array(split.segments.keys)
        let running = keys.enumerated().compactMap { index, key in
            split.segments[key].map { SegmentPlanner.Segment(id: index, start: $0.start, next: $0.start + $0.written, end: $0.end) }
        }
        // What no connection has written or is fetching: a failed helper's range.
        var covered = download.completed
        for segment in running { covered.insert(segment.next..<segment.end) }
        if let gap = covered.gaps(upTo: split.total).first {
            toStart.append(makeHelper(for: gap, of: download, split: &split, path: path))
        } else if let steal = split.planner.steal(from: running) {
            let victim = keys[steal.victim]
            split.segments[victim]?.end = steal.newEnd
            let victimConnection = ([state.connections[id]] + split.helpers).compactMap { $0 }.first { ObjectIdentifier($0) == victim }
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
}
