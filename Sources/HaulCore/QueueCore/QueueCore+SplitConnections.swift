import Foundation
import HaulNet
import HaulText

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
extension QueueCore {
    /// On the first connection's accepted answer: plans the split when it is worth it, starts
    /// the helpers, and returns where the first connection ends, or nil to stay on one
    /// connection.
    mutating func planSplit(
        _ download: Download, primary: ConnectionID, _ accepted: NameRequest, offset: Int64, total: Int64
    ) -> Int64? {
        let options = options(of: download)
        let (mirrors, mirrorURIs) = mirrorRequests(of: download, first: accepted.request)
        let automatic = options.splitting.automatic
        let perMirror = options.splitting.perServer
        let limit = options.splitting.limit(mirrors: mirrors.count)
        let response = accepted.response
        let validator = response.validator
        guard limit > 1, total > 0, validator != nil, state.runs[download.id]?.noSplit != true,
            !response.isMultipartPart, response.offersRanges
        else { return nil }
        let planner = planner(options, length: total, maxConnections: limit)
        if automatic {
            guard options.mayGrow(total: total), total - offset >= 4 * planner.minSplitSize else {
                return nil
            }
            var split = Split(
                planner: planner, total: total, validator: validator, mirrors: mirrors, mirrorURIs: mirrorURIs,
                mirrorLabels: mirrors.map(\.url.redactedString), perMirror: perMirror)
            // A resumed download asks only for what it lacks: the first connection ends where data
            // received before begins, and the next gap is the next connection's.
            let kept = offset == 0 ? ByteRanges() : download.completed
            let end = kept.gaps(upTo: total).first { $0.upperBound > offset }?.upperBound ?? total
            split.segments[primary] = Split.Segment(start: offset, end: end, mirror: 0, now: clock.uptime)
            let answerTime = state.attempts[download.id].map { clock.uptime - $0.holder.startedAt } ?? 0
            beginGrowth(download.id, first: primary, answerTime: answerTime, limit: limit, split: &split)
            state.setSplit(download.id, split)
            watchForLaggards(download.id)
            return end
        }
        var completed = offset == 0 ? ByteRanges() : download.completed
        completed.insert(0..<offset)
        let ranges = planner.initialRanges(completed: completed)
        guard ranges.count > 1, ranges[0].lowerBound == offset else { return nil }
        var split = Split(
            planner: planner, total: total, validator: validator, mirrors: mirrors, mirrorURIs: mirrorURIs,
            mirrorLabels: mirrors.map(\.url.redactedString), perMirror: perMirror)
        split.segments[primary] = Split.Segment(start: offset, end: ranges[0].upperBound, mirror: 0, now: clock.uptime)
        for range in ranges.dropFirst() {
            guard let mirror = split.mirror(preferring: nil) else { break }
            startHelper(for: range, mirror: mirror, of: download.id, split: &split)
        }
        state.setSplit(download.id, split)
        shareSpeedLimit(download.id)
        watchForLaggards(download.id)
        return ranges[0].upperBound
    }

    /// Whether a body of `total` bytes of `download`, with its options in effect `options`, would
    /// be split, as `planSplit` splits.
    func wouldSplit(_ download: Download, options: EffectiveOptions, total: Int64) -> Bool {
        if options.splitting.automatic { return options.mayGrow(total: total) }
        let limit = options.splitting.limit(mirrors: download.uris.count)
        guard limit > 1, total > 0 else { return false }
        return planner(options, length: total, maxConnections: limit).initialRanges(completed: ByteRanges()).count > 1
    }

    /// The segment planner for a file of `length` bytes with these options (`-k`, the piece
    /// order) over at most `maxConnections`.
    private func planner(_ options: EffectiveOptions, length: Int64, maxConnections: Int) -> SegmentPlanner {
        SegmentPlanner(
            length: length, minSplitSize: options.splitting.minSplitSize,
            maxConnections: maxConnections, patience: configuration.patience,
            order: options.streamPieceSelector ?? .spread)
    }

    /// The first connection's request, then one for each other usable URI of the download.
    private func mirrorRequests(of download: Download, first: Request) -> (requests: [Request], uris: [String]) {
        var first = first
        first.byteRange = nil
        first.headers.remove("If-Range")
        let others = download.uris.indices.filter { $0 != download.attemptURIIndex }.compactMap { index in
            URL(string: download.uris[index]).map { (url: $0, uri: download.uris[index]) }
        }
        let requests = others.map { other in
            var request = first
            request.url = other.url
            return request
        }
        let attempt = download.attemptURIIndex
        let firstURI = download.uris.indices.contains(attempt) ? download.uris[attempt] : ""
        return ([first] + requests, [firstURI] + others.map(\.uri))
    }

    /// Starts a connection for `range` of a split download from `mirror`, filed in `split`;
    /// returns its id.
    @discardableResult
    mutating func startHelper(
        for range: Range<Int64>, mirror: Int, of downloadID: GID, split: inout Split
    ) -> ConnectionID {
        var request = split.mirrors[mirror]
        request.byteRange = ByteRange(from: range.lowerBound, through: range.upperBound - 1)
        // Each connection of a split is a TCP connection: a link's cap per connection then binds
        // each segment, not the whole download (as HTTP/2 streams on one connection would).
        request.ownsConnection = true
        let helper = PlannedConnection(
            id: newConnectionID(for: downloadID), request: request,
            hostKey: QueueCore.hostKey(request.url.absoluteString), resumeOffset: range.lowerBound,
            expectedValidator: split.validator, expectedTotal: nil, isHelper: true, conditionalLookup: nil)
        split.helpers.append(helper)
        var segment = Split.Segment(start: range.lowerBound, end: range.upperBound, mirror: mirror, now: clock.uptime)
        segment.startedAlone = split.segments.isEmpty
        split.segments[helper.id] = segment
        ask(.start(helper))
        return helper.id
    }

    /// Gives each running connection of download `id` an equal share of its own speed limit, so
    /// that together they keep to it. Without a limit nothing is sent, unless `lifting` one.
    mutating func shareSpeedLimit(_ id: GID, lifting: Bool = false) {
        guard let download = state.downloads[id] else { return }
        let limit = options(of: download).maxDownloadLimit?.cap
        guard limit != nil || lifting else { return }
        let connections = state.attempts[id]?.running ?? []
        let share = limit.map { max($0 / Int64(max(connections.count, 1)), 1) }
        for connection in connections { ask(.limitSpeed(connection.id, share)) }
    }

    // MARK: - Helper responses

    /// A helper's response: its segment is written if the answer agrees with the first one's
    /// (206 at the segment's start, same length, and on the first server the same validator).
    /// An FTP or SFTP server tells no length for a range that ends before the file does (`*`):
    /// on the first server the validator (its `MDTM` time) vouches for the file instead.
    /// Otherwise: another mirror is dropped; the first server's disagreement stops the split and
    /// the file restarts on one connection.
    mutating func helperResponded(_ helper: ConnectionID, _ response: Response) {
        let id = helper.downloadID
        guard let split = state.split(id), let segment = split.segments[helper],
            let path = state.downloads[id]?.partialPath
        else { return ask(.answer(helper, .cancel)) }
        // Mirrors are other servers: their validators need not match the first one's.
        let sameServer = segment.mirror == 0
        let judged = ResumeRule.judge(response, rangeFrom: segment.start, validator: sameServer ? split.validator : nil)
        if case .write(let offset, let total) = judged, offset == segment.start,
            total == split.total || (total < 0 && sameServer && split.validator != nil),
            !sameServer || response.validator == split.validator
        {
            let target = DownloadTarget(
                path: path, offset: segment.start, end: segment.end, keepsTail: true, mustExist: true)
            return ask(.answer(helper, .becomeDownload(target)))
        }
        ask(.answer(helper, .cancel))
        if split.growth != nil, sameServer, QueueCore.isPushBack(response.statusCode) {
            // A server that will not take another connection from us: the others go on.
            var split = split
            let refused = split.forget(helper)
            growthPushedBack(helper, startedAt: segment.startedAt, why: "\(response.statusCode)", &split)
            return keepFetching(id, &split, after: refused)
        }
        guard sameServer else {
            let reason =
                response.isSuccess
                ? "it answered for another file (length \(QueueCore.length(judged)), not \(split.total))"
                : "it answered \(response.statusCode) \(TextSanitizer.visible(response.reasonPhrase))"
            return dropMirror(of: helper, reason: reason)
        }
        // Never splice two versions: every connection stops and the file restarts on one.
        state.runs[id, default: DownloadRun()].noSplit = true
        startOver(id, reason: "a second connection got a different answer", refundAttempt: false)
    }

    /// Whether a status says "not another connection now" (too many requests, unavailable, a
    /// server error) rather than "another file".
    static func isPushBack(_ status: Int) -> Bool {
        status == 429 || (500..<600).contains(status)
    }

    private static func length(_ judged: ResumeRule) -> String {
        if case .write(_, let total) = judged, total >= 0 { return "\(total)" }
        return "unknown"
    }

    /// A helper failed. On another mirror, that mirror is dropped and its range fetched from the
    /// others now; on the first server, its range becomes a gap that the next connection to
    /// finish takes over.
    mutating func helperFailed(_ helper: ConnectionID, _ error: ConnectionError) {
        let id = helper.downloadID
        guard var split = state.split(id), let segment = split.segments[helper] else { return }
        if segment.mirror != 0 { return dropMirror(of: helper, reason: error.description) }
        split.forget(helper)
        if split.growth != nil, segment.firstByteAt == nil {
            growthPushedBack(helper, startedAt: segment.startedAt, why: QueueCore.pushBackWords(error), &split)
        }
        keepFetching(id, &split, after: segment)
    }

    /// Files `split` after its connection of `segment` went, keeping it alive: whenever bytes are
    /// missing and none of its connections runs, one starts for what is missing. When the one
    /// that went had started alone (the server, still counting the connections that just ended,
    /// took none), the download stops splitting for this run and starts again at once on one
    /// connection, the attempt not counted: this one's first connection was answered and wrote,
    /// and a refusal of the next is an attempt's failure as any other.
    private mutating func keepFetching(_ id: GID, _ split: inout Split, after segment: Split.Segment?) {
        keepSlotRunning(&split, id, last: nil)
        state.setSplit(id, split)
        guard split.segments.isEmpty, let download = state.downloads[id],
            !download.completed.covers(length: split.total)
        else { return shareSpeedLimit(id) }
        if segment?.startedAlone == true {
            state.runs[id, default: DownloadRun()].noSplit = true
            return requeue(id, refundAttempt: true)
        }
        newWork(&split, download, preferring: 0)
        keepSlotRunning(&split, id, last: nil)
        state.setSplit(id, split)
        shareSpeedLimit(id)
    }

    /// Gives up on the mirror of `helper`: records it and why in the download's
    /// activity, and starts a connection on another mirror for what the helper did not
    /// write.
    private mutating func dropMirror(of helper: ConnectionID, reason: String) {
        let id = helper.downloadID
        guard var split = state.split(id), let download = state.downloads[id], let segment = split.forget(helper)
        else { return }
        // Its other connections fail too, but the mirror is dropped, and said, once.
        if split.dropped[segment.mirror] == nil {
            split.dropped[segment.mirror] = reason
            show(id, .mirrorDropped("\(split.mirrorLabels[segment.mirror]): \(reason)"))
        }
        newWork(&split, download, preferring: nil)
        keepSlotRunning(&split, id, last: nil)
        state.setSplit(id, split)
        shareSpeedLimit(id)
    }
}
