import Foundation
import HaulNet

// MARK: - Admission

/// How the queue chooses what runs: queued downloads in order, while slots are free and their
/// host is under the cap, each attempt made into a `DownloadConnection`.
extension DownloadQueue {
    /// How many queued downloads held back by a full host admission looks past before it stops,
    /// so a long queue from one capped host costs a bounded scan, not the whole queue.
    static let hostLookahead = 1000

    /// Starts queued downloads, in order, while slots are free and their hosts are under the
    /// per-host cap; returns their connections to start once the lock is released.
    func admit(_ state: inout State) -> [DownloadConnection] {
        var started: [DownloadConnection] = []
        var index = state.scanFrom
        var firstHeldBack: Int?
        var heldBack = 0
        let hostCap = configuration.maxConnectionsPerHost
        while index < state.order.count, state.connections.count < configuration.maxConcurrentDownloads,
            heldBack < DownloadQueue.hostLookahead
        {
            let id = state.order[index]
            index += 1
            guard var download = state.downloads[id], download.state == .queued, !state.waiting.contains(id) else {
                continue
            }
            if hostCap > 0, !download.uris.isEmpty,
                state.hostConnections[
                    DownloadQueue.hostKey(download.uris[download.attempts % download.uris.count]), default: 0]
                    >= hostCap
            {
                firstHeldBack = firstHeldBack ?? index - 1
                heldBack += 1
                continue
            }
            if DownloadQueue.isRecordedWhole(download) {
                // Every byte may be here already: the file is looked at, then checked and named
                // with no transfer, off the lock.
                download.state = .active
                download.attempts += 1
                state.downloads[id] = download
                emit(.changed(download))
                let recorded = download
                callbackQueue.async { [self] in checkWhole(recorded) }
                continue
            }
            guard let connection = makeAttempt(&download) else {
                state.downloads[id] = download
                started += failed(&state, id, .local(.unknown), "'\(download.uris.first ?? "")' is not a usable URI")
                continue
            }
            state.downloads[id] = download
            state.saved.remove(id)
            state.connections[id] = connection
            state.hostConnections[connection.hostKey, default: 0] += 1
            emit(.changed(download))
            started.append(connection)
        }
        state.scanFrom = firstHeldBack ?? index
        return started
    }

    /// `scheme://host:port` of `uri`, lowercased, without user info: what the per-host cap counts.
    static func hostKey(_ uri: String) -> String {
        guard let schemeEnd = uri.range(of: "://") else { return uri.lowercased() }
        let rest = uri[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return (uri[..<schemeEnd.upperBound] + authority).lowercased()
    }

    func startConnections(_ connections: [DownloadConnection]) {
        for connection in connections { connection.start() }
    }

    /// The next attempt's connection: a mirror chosen in turn, the options as a request, and a
    /// Range with If-Range when the partial file holds data read under a known validator.
    func makeAttempt(_ download: inout Download) -> DownloadConnection? {
        download.state = .active
        download.attempts += 1
        // What the last attempt's split showed belongs to it.
        download.liveSegments = []
        download.droppedMirrors = []
        let options = download.options.merged(over: configuration.defaults)
        guard !download.uris.isEmpty, let url = URL(string: download.uris[download.attemptURIIndex]) else {
            return nil
        }
        var request = configuration.request(for: url, options: options)
        var resumeOffset: Int64 = 0
        let prefix = download.completed.prefixLength
        // Without a validator only a file the user asked to continue (`-c`) is resumed, as wget
        // does: its first bytes came from another tool, which kept none. That the partial file
        // still holds them is checked when the answer comes, outside the lock (`partialHolds`).
        if prefix > 0, download.validator != nil || options.continueExisting == true, download.partialPath != nil {
            resumeOffset = prefix
            request.byteRange = ByteRange(from: resumeOffset)
            if let validator = download.validator { request.headers.set("If-Range", validator) }
        } else {
            download.completed.removeAll()
        }
        var conditionalFile: String?
        if options.conditionalGet == true, resumeOffset == 0, download.destination == nil,
            let existing = ConditionalGet.existingFile(
                out: options.out, url: url, directory: download.directory ?? configuration.directory)
        {
            conditionalFile = existing
            for header in ConditionalGet.headers(for: existing) { request.headers.set(header.name, header.value) }
        }
        return DownloadConnection(
            request: request, downloadID: download.id, hostKey: DownloadQueue.hostKey(url.absoluteString),
            resumeOffset: resumeOffset,
            expectedValidator: resumeOffset > 0 ? download.validator : nil,
            expectedTotal: resumeOffset > 0 && download.totalBytes > 0 ? download.totalBytes : nil,
            conditionalFile: conditionalFile, queue: self, callbackQueue: callbackQueue, engine: engine)
    }
}
