import Foundation
import HaulNet

// MARK: - Admission

/// What runs: queued downloads in order, while slots are free and their host is under the cap,
/// each attempt planned as a connection with its request.
extension QueueCore {
    /// How many queued downloads held back by a full host admission looks past before it stops,
    /// so a long queue from one capped host costs a bounded scan, not the whole queue.
    static let hostLookahead = 1000

    /// Starts queued downloads, in order, while slots are free, their hosts are under the
    /// per-host cap and not held for refusing (`HostRefusals`: then one at a time). With every
    /// slot taken, a download from a host that answers over HTTP/2 starts as a further stream of
    /// its connection, while that host has fewer than `streamWindow` in flight (and all such
    /// streams are fewer than twice that): on a link with latency, small files cost round trips,
    /// not bytes, and -j downloads at a time leave the link idle between them.
    mutating func admit() {
        var index = state.scanFrom
        var firstHeldBack: Int?
        var heldBack = 0
        let hostCap = configuration.maxConnectionsPerHost
        let window = configuration.streamWindow
        while index < state.downloads.count, heldBack < QueueCore.hostLookahead {
            let slotFree = state.slotsTaken < configuration.maxConcurrentDownloads
            // With no slot, only a host with stream room is worth the scan (a scan for a full one
            // looked at a thousand queued downloads for every one that ended).
            guard slotFree || (state.streamCount < 2 * window && state.origins.anyStreamRoom(window: window)) else {
                break
            }
            var download = state.downloads[position: index]
            let id = download.id
            index += 1
            guard download.state == .queued, state.runs[id]?.waiting != true else { continue }
            if let link = download.torrentLink {
                // A torrent takes a slot, and no host's: its peers are many.
                guard slotFree else {
                    firstHeldBack = firstHeldBack ?? index - 1
                    heldBack += 1
                    continue
                }
                startTorrent(&download, link)
                continue
            }
            // The key is made only when a cap, a held host or a full set of slots asks (the plan
            // makes it again for the connection): this runs for every download admitted.
            let host =
                hostCap == 0 && slotFree && state.hostRefusals.isEmpty ? nil : QueueCore.nextHostKey(of: download)
            let capped = hostCap > 0 && host.map { state.origins[$0].active >= hostCap } == true
            let held = host.map { !state.hostRefusals.mayStart($0, now: clock.uptime) } ?? false
            if capped || held || (!slotFree && !(host.map { state.origins.hasStreamRoom($0, window: window) } ?? false))
            {
                firstHeldBack = firstHeldBack ?? index - 1
                heldBack += 1
                continue
            }
            if QueueCore.isRecordedWhole(download) {
                // Every byte may be here already: the shell looks at the file, then it is
                // checked and named with no transfer.
                download.state = .active
                download.attempts += 1
                file(download)
                ask(.checkWhole(download, response: state.runs[id]?.activity.response))
                continue
            }
            guard var connection = plan(&download) else {
                state.downloads[id] = download
                failed(id, .local(.unknown), "'\(download.uris.first ?? "")' is not a usable URI")
                continue
            }
            connection.startedAt = clock.uptime
            state.beginAttempt(id, holder: connection, isStream: !slotFree, at: clock.uptime)
            if !state.hostRefusals.isEmpty { state.hostRefusals.started(connection.hostKey, by: id) }
            file(download)
            ask(.start(connection))
        }
        state.scanFrom = firstHeldBack ?? index
    }

    /// Whether the store says the partial file of `download` holds every byte of the file, so the
    /// next attempt may need no transfer (`QueueEffect.checkWhole` looks at the file).
    static func isRecordedWhole(_ download: Download) -> Bool {
        download.totalBytes > 0 && download.completed.prefixLength >= download.totalBytes
            && download.partialPath != nil
    }

    /// The host key of the URI a queued download's next attempt asks (its mirrors in turn), or
    /// nil when it has none.
    static func nextHostKey(of download: Download) -> String? {
        download.uris.isEmpty ? nil : hostKey(download.uris[download.attempts % download.uris.count])
    }

    /// The `Origin` of `uri` as text: what the per-host cap, the stream window and a host's
    /// refusals count (`https://h/` and `https://h:443/` are one host).
    static func hostKey(_ uri: String) -> String {
        Origin(uri: uri).description
    }

    /// The next attempt's connection: a mirror chosen in turn, the options as a request, and a
    /// Range with If-Range when the partial file holds data read under a known validator.
    private mutating func plan(_ download: inout Download) -> PlannedConnection? {
        download.state = .active
        download.attempts += 1
        let options = options(of: download)
        guard !download.uris.isEmpty, let url = URL(string: download.uris[download.attemptURIIndex]) else {
            return nil
        }
        var request = configuration.request(for: url, options: options)
        var resumeOffset: Int64 = 0
        let prefix = download.completed.prefixLength
        // That the partial file still holds the bytes is checked when the answer comes
        // (`QueueInput.named`).
        let resumable = download.continuesPartialData(
            options: options.given, startedHere: state.runs[download.id]?.resumableHere == true)
        if prefix > 0, resumable, download.partialPath != nil {
            resumeOffset = prefix
            request.modify { fields in
                fields.byteRange = ByteRange(from: resumeOffset)
                if let validator = download.validator { fields.headers.set("If-Range", validator) }
            }
        } else {
            download.completed.removeAll()
        }
        let conditional =
            options.conditionalGet == true && resumeOffset == 0 && download.destination == nil
            ? ConditionalGet.Lookup(
                out: options.out, url: url, directory: download.directory ?? configuration.directory)
            : nil
        var planned = PlannedConnection(
            id: newConnectionID(for: download.id), request: request,
            hostKey: QueueCore.hostKey(download.uris[download.attemptURIIndex]), resumeOffset: resumeOffset,
            expectedValidator: resumeOffset > 0 ? download.validator : nil,
            expectedTotal: resumeOffset > 0 && download.totalBytes > 0 ? download.totalBytes : nil,
            isHelper: false, conditionalLookup: conditional)
        // A whole body small enough for a file with no name, and not split at that size, goes
        // there without asking: `responded` accepts every 200 this allows.
        let limit = options.resumableAbove
        if resumeOffset == 0, conditional == nil, options.dryRun != true,
            mayBeUnnamed(download, options: options, offset: 0, total: limit, replacing: nil)
        {
            planned.presumedUnnamed = UnnamedPresumption(download: download, limit: limit)
        }
        return planned
    }
}
