import Foundation
import HaulNet

// MARK: - Split downloads

/// One file over several connections (`-x` above 1) and mirrors: the first response shows the
/// length and the validator; the `SegmentPlanner` splits what is missing; the first connection
/// is bounded to its segment and helpers fetch the others with `Range: bytes=a-b`, each into
/// the same partial file, spread over the download's mirrors (at most `-x` connections each).
///
/// - A helper on the first connection's server whose answer disagrees (no 206, another length
///   or validator) stops the split and restarts the file on one connection.
/// - A helper on another mirror that fails, or answers for another file (another length), has
///   that mirror dropped, its error recorded, and its range fetched from the others at once.
/// - A connection that finishes takes over a gap, else half of the largest remaining segment,
///   from its own mirror: a faster mirror finishes sooner, so it gets more of the work.
extension DownloadQueue {
    /// On the first connection's response: plans the split when it is worth it and returns the
    /// first connection's end and the helpers to start, or nil to stay on one connection.
    func planSplit(
        _ state: inout State, _ download: Download, primary: DownloadConnection, response: Response,
        offset: Int64, total: Int64
    ) -> (end: Int64, helpers: [DownloadConnection])? {
        let options = download.options.merged(over: configuration.defaults)
        let mirrors = mirrorRequests(of: download, primary: primary)
        let perMirror = options.maxConnectionPerServer ?? 1
        // Connections: `-s`, capped by `-x` on each mirror.
        let limit = min(options.split ?? 5, perMirror * mirrors.count)
        let validator = response.validator
        guard limit > 1, total > 0, validator != nil, !state.noSplit.contains(download.id), !response.isMultipartPart,
            response.statusCode == 206 || response.headers["Accept-Ranges"]?.lowercased() == "bytes",
            let path = download.partialPath
        else { return nil }
        let planner = SegmentPlanner(
            length: total, minSplitSize: options.minSplitSize ?? 20 << 20, maxConnections: limit,
            patience: configuration.patience)
        var completed = offset == 0 ? ByteRanges() : download.completed
        completed.insert(0..<offset)
        let ranges = planner.initialRanges(completed: completed)
        guard ranges.count > 1, ranges[0].lowerBound == offset else { return nil }
        var split = Split(
            planner: planner, total: total, validator: validator, mirrors: mirrors,
            mirrorLabels: mirrors.map(\.url.redactedString), perMirror: perMirror)
        split.segments[ObjectIdentifier(primary)] = Split.Segment(
            start: offset, end: ranges[0].upperBound, mirror: 0, now: uptime())
        let helpers = ranges.dropFirst().compactMap { range in
            split.mirror(preferring: nil).map {
                makeHelper(for: range, mirror: $0, of: download, split: &split, path: path)
            }
        }
        state.splits[download.id] = split
        shareSpeedLimit(state, download.id)
        watchForLaggards(&state, download.id)
        return (ranges[0].upperBound, helpers)
    }

    /// The first connection's request, then one for each other usable URI of the download.
    private func mirrorRequests(of download: Download, primary: DownloadConnection) -> [Request] {
        var first = primary.currentRequest
        first.byteRange = nil
        first.headers.remove("If-Range")
        let others = download.uris.indices.filter { $0 != download.attemptURIIndex }.compactMap {
            URL(string: download.uris[$0])
        }
        return [first]
            + others.map { url in
                var request = first
                request.url = url
                return request
            }
    }

    /// A connection for `range` of a split download from `mirror`, filed in `split`.
    func makeHelper(
        for range: Range<Int64>, mirror: Int, of download: Download, split: inout Split,
        path: String
    ) -> DownloadConnection {
        var request = split.mirrors[mirror]
        request.byteRange = ByteRange(from: range.lowerBound, through: range.upperBound - 1)
        // Each connection of a split is a TCP connection: a link's cap per connection then binds
        // each segment, not the whole download (as HTTP/2 streams on one connection would).
        request.ownsConnection = true
        let helper = DownloadConnection(
            request: request, downloadID: download.id, hostKey: DownloadQueue.hostKey(request.url.absoluteString),
            resumeOffset: range.lowerBound, expectedValidator: split.validator, isHelper: true,
            queue: self, callbackQueue: callbackQueue, engine: engine)
        split.helpers.append(helper)
        split.segments[ObjectIdentifier(helper)] = Split.Segment(
            start: range.lowerBound, end: range.upperBound, mirror: mirror, now: uptime())
        return helper
    }

    /// Whether `attempt` is one of the running connections of its download.
    func isCurrent(_ attempt: DownloadConnection, in state: State) -> Bool {
        state.connections[attempt.downloadID] === attempt
            || state.splits[attempt.downloadID]?.helpers.contains { $0 === attempt } == true
    }

    /// The running connections of download `id`: the first (or the helper in its place), then
    /// the helpers.
    func runningConnections(_ state: State, _ id: String) -> [DownloadConnection] {
        state.splits[id]?.running(holder: state.connections[id]) ?? [state.connections[id]].compactMap { $0 }
    }

    /// Gives each running connection of download `id` an equal share of its own speed limit, so
    /// that together they keep to it. Without a limit nothing is sent, unless `lifting` one.
    func shareSpeedLimit(_ state: State, _ id: String, lifting: Bool = false) {
        guard let download = state.downloads[id] else { return }
        let limit = download.options.merged(over: configuration.defaults).maxDownloadLimit.flatMap { $0 > 0 ? $0 : nil }
        guard limit != nil || lifting else { return }
        let connections = runningConnections(state, id)
        let share = limit.map { max($0 / Int64(max(connections.count, 1)), 1) }
        for connection in connections { connection.setMaxReceiveSpeed(share) }
    }

    // MARK: - Helper responses

    /// A helper's response: its segment is written if the answer agrees with the first one's
    /// (206 at the segment's start, same length, and on the first server the same validator).
    /// Otherwise: another mirror is dropped; the first server's disagreement stops the split and
    /// the file restarts on one connection.
    func helperResponse(
        _ state: inout State, _ helper: DownloadConnection, _ response: Response
    ) -> (ResponseDisposition, [DownloadConnection]) {
        let id = helper.downloadID
        guard let split = state.splits[id], let segment = split.segments[ObjectIdentifier(helper)],
            let path = state.downloads[id]?.partialPath
        else { return (.cancel, []) }
        // Mirrors are other servers: their validators need not match the first one's.
        let sameServer = segment.mirror == 0
        let judged = ResumeRule.judge(response, rangeFrom: segment.start, validator: sameServer ? split.validator : nil)
        if case .write(let offset, let total) = judged, offset == segment.start, total == split.total,
            !sameServer || response.validator == split.validator
        {
            return (
                .becomeDownload(
                    DownloadTarget(
                        path: path, offset: segment.start, end: segment.end, keepsTail: true, mustExist: true)), []
            )
        }
        guard sameServer else {
            let reason =
                response.isSuccess
                ? "it answered for another file (length \(judgedLength(judged)), not \(split.total))"
                : "it answered \(response.statusCode) \(TextSanitizer.visible(response.reasonPhrase))"
            return (.cancel, dropMirror(&state, helper, reason: reason))
        }
        // Never splice two versions: every connection stops and the file restarts on one.
        state.noSplit.insert(id)
        return (
            .cancel, startOver(&state, id, reason: "a second connection got a different answer", refundAttempt: false)
        )
    }

    private func judgedLength(_ judged: ResumeRule) -> String {
        if case .write(_, let total) = judged, total >= 0 { return "\(total)" }
        return "unknown"
    }

    /// A helper failed. On another mirror, that mirror is dropped and its range fetched from the
    /// others now; on the first server, its range becomes a gap that the next connection to
    /// finish takes over.
    func helperFailed(
        _ state: inout State, _ helper: DownloadConnection, _ error: ConnectionError
    ) -> [DownloadConnection] {
        let id = helper.downloadID
        guard var split = state.splits[id], let segment = split.segments[ObjectIdentifier(helper)] else { return [] }
        if segment.mirror != 0 { return dropMirror(&state, helper, reason: error.description) }
        split.forget(ObjectIdentifier(helper))
        state.splits[id] = split
        shareSpeedLimit(state, id)
        return []
    }

    /// Gives up on the mirror of `helper`: records it and why in the download's
    /// `droppedMirrors`, and starts a connection on another mirror for what the helper did not
    /// write.
    private func dropMirror(_ state: inout State, _ helper: DownloadConnection, reason: String) -> [DownloadConnection]
    {
        let id = helper.downloadID
        guard var split = state.splits[id], var download = state.downloads[id],
            let segment = split.forget(ObjectIdentifier(helper))
        else { return [] }
        // Its other connections fail too, but the mirror is dropped, and said, once.
        if split.dropped[segment.mirror] == nil {
            split.dropped[segment.mirror] = reason
            download.droppedMirrors.append("\(split.mirrorLabels[segment.mirror]): \(reason)")
            state.downloads[id] = download
            emit(.changed(download))
        }
        let toStart = newWork(&split, download, holder: state.connections[id], preferring: nil).map { [$0] } ?? []
        keepSlotRunning(&state, &split, id, last: nil)
        state.splits[id] = split
        shareSpeedLimit(state, id)
        return toStart
    }
}
