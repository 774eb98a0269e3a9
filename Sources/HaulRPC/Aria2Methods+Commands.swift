import Foundation
import HaulCore
import HaulTorrent

// MARK: - Aria2Methods: commands

extension Aria2Methods {
    /// `addUri(uris[, options[, position]])`: queues one download of the mirrors `uris` and
    /// returns its gid. `dir` and `out` must stay inside the allowed directory; an option is
    /// taken as `downloadOptions` takes it.
    func addUri(_ params: RPCParams) throws(RPCError) -> JSONValue {
        guard let uris = try params.strings(0, "uris"), !uris.isEmpty else {
            throw .invalidParams("uris (parameter 1) must be a non-empty array of strings")
        }
        for uri in uris {
            if let problem = QueueEntry.uriProblem(uri) { throw RPCError(RPCError.shown(problem)) }
        }
        let options = try downloadOptions(params, 1)
        let position = try params.optionalInteger(2, "position")
        let id = queue.add(QueueEntry(uris: uris, options: options))
        if let position { move(id, toWaitingPosition: position) }
        return .gid(id)
    }

    /// `addMetalink(metalink[, options[, position]])`: queues a download for each file of the
    /// base64 Metalink 4 document, and returns their gids. Its names stay inside the allowed
    /// directory, as `out` does.
    func addMetalink(_ params: RPCParams) throws(RPCError) -> JSONValue {
        guard let data = Data(base64Encoded: try params.string(0, "metalink")) else {
            throw .invalidParams("metalink (parameter 1) must be a Metalink 4 document in base64")
        }
        let parsed: MetalinkParser.Result
        do throws(MetalinkParser.Failure) {
            parsed = try MetalinkParser.parse(data, source: "metalink")
        } catch {
            throw RPCError(RPCError.shown(error.description))
        }
        let entries = parsed.metalink.entries(inheriting: try downloadOptions(params, 1), fromServer: false)
        for entry in entries { try settings.allowedDirectory.check(out: entry.options.out ?? "") }
        let position = try params.optionalInteger(2, "position")
        let ids = queue.add(entries)
        if let position {
            for (offset, id) in ids.enumerated() { move(id, toWaitingPosition: position + offset) }
        }
        return .array(ids.map { .gid($0) })
    }

    /// `addTorrent(torrent[, uris[, options[, position]]])`: queues the base64 .torrent as one
    /// download, `uris` its web seeds, and returns its gid. The torrent is read under
    /// libtorrent's limits here (a bad one is refused with libtorrent's reason) and kept in the
    /// daemon's folder of uploaded torrents; its files' names pass the name gate when it starts.
    func addTorrent(_ params: RPCParams) throws(RPCError) -> JSONValue {
        guard let folder = settings.metainfoFolder else {
            throw RPCError(
                "aria2.addTorrent: this haul keeps no uploaded torrents; use aria2.addUri with a magnet link")
        }
        let text = try params.string(0, "torrent")
        guard text.utf8.count <= (TorrentMetainfo.longest / 3 + 1) * 4, let data = Data(base64Encoded: text) else {
            throw .invalidParams(
                "torrent (parameter 1) must be a .torrent file of at most \(TorrentMetainfo.longest / 1_000_000) MB "
                    + "in base64")
        }
        let bytes = Array(data)
        let metainfo: TorrentMetainfo
        do throws(TorrentError) {
            metainfo = try TorrentMetainfo(bytes: bytes)
        } catch {
            throw RPCError("torrent (parameter 1): not a usable .torrent: \(RPCError.shown(error.description))")
        }
        let seeds = try params.strings(1, "uris") ?? []
        for seed in seeds {
            if let problem = QueueEntry.uriProblem(seed) ?? QueueEntry.webSeedProblem(seed) {
                throw RPCError("uris (parameter 2): \(RPCError.shown(problem))")
            }
        }
        let options = try downloadOptions(params, 2)
        let position = try params.optionalInteger(3, "position")
        let path: String
        do throws(StoreError) {
            path = try folder.keep(bytes, infoHash: metainfo.infoHash)
        } catch {
            throw RPCError("\(error)")
        }
        let id = queue.add(QueueEntry(uris: [path] + seeds, options: options))
        if let position { move(id, toWaitingPosition: position) }
        return .gid(id)
    }

    /// `remove(gid)` and `forceRemove`: stops the download for good; its status becomes
    /// `removed` and it stays listed until its result is removed.
    func remove(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard !download.state.isFinal else { throw RPCError("download \(download.id) has already stopped") }
        queue.cancel(download.id)
        return .gid(download.id)
    }

    /// `pause(gid)` and `forcePause`.
    func pause(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard download.state == .queued || download.state == .active else {
            throw RPCError("download \(download.id) cannot be paused: it is \(Aria2Status.status(of: download.state))")
        }
        queue.pause(download.id)
        return .gid(download.id)
    }

    /// `unpause(gid)`.
    func unpause(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard download.state == .paused else {
            throw RPCError("download \(download.id) is not paused: it is \(Aria2Status.status(of: download.state))")
        }
        queue.resume(download.id)
        return .gid(download.id)
    }

    func pauseAll() -> JSONValue {
        for id in queue.ids(in: [.queued, .active]) { queue.pause(id) }
        return "OK"
    }

    func unpauseAll() -> JSONValue {
        for id in queue.ids(in: [.paused]) { queue.resume(id) }
        return "OK"
    }

    /// `changePosition(gid, pos, how)`: moves a waiting download within the waiting ones
    /// (`POS_SET`, `POS_CUR`, `POS_END`) and returns its new place among them.
    func changePosition(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        let offset = try params.integer(1, "pos")
        let waiting = queue.ids(in: [.queued, .paused])
        guard let current = waiting.firstIndex(of: download.id) else {
            throw RPCError("download \(download.id) is not waiting: only waiting downloads change position")
        }
        let target: Int
        switch try params.string(2, "how") {
        case "POS_SET": target = offset
        case "POS_CUR": target = current + offset
        case "POS_END": target = waiting.count - 1 + offset
        case let how: throw .invalidParams("how must be POS_SET, POS_CUR or POS_END, not '\(RPCError.shown(how))'")
        }
        return .int(Int64(move(download.id, toWaitingPosition: target)))
    }

    /// Moves waiting download `id` to `position` among the waiting ones (clamped); returns it.
    @discardableResult
    private func move(_ id: GID, toWaitingPosition position: Int) -> Int {
        let waiting = queue.ids(in: [.queued, .paused])
        guard !waiting.isEmpty else { return 0 }
        let target = min(max(position, 0), waiting.count - 1)
        if waiting[target] != id, let index = queue.ids.firstIndex(of: waiting[target]) { queue.move(id, .to(index)) }
        return target
    }

    /// `changeUri(gid, fileIndex, delUris, addUris[, position])`: takes `delUris` off the
    /// download's mirrors and puts `addUris` at `position` (0-based, among those left; the end
    /// when absent), and returns how many of each it took off and put, as aria2 does (a URI that
    /// is not one haul loads is not put). What was received stays: refreshing an expired link
    /// continues the file. A network client that changes the owner's download takes its
    /// credentials away (`QueueCore.changeURIs`): they were given for its URIs, not the client's.
    func changeUri(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard try params.integer(1, "fileIndex") == 1 else {
            throw RPCError("fileIndex must be 1: a download of haul's has one file")
        }
        let removing = try params.strings(2, "delUris") ?? []
        let adding = (try params.strings(3, "addUris") ?? []).filter { QueueEntry.uriProblem($0) == nil }
        let position = try params.optionalInteger(4, "position")
        let (left, removed) = download.uris.changed(removing: removing, adding: adding, at: position)
        guard !left.isEmpty else {
            throw RPCError("download \(download.id) would have no URI left: add one as you take the last off")
        }
        queue.changeURIs(
            download.id, removing: removing, adding: adding, at: position,
            by: settings.clientIsOwner ? .owner : .networkClient)
        return [.int(Int64(removed)), .int(Int64(adding.count))]
    }

    /// `purgeDownloadResult()`: takes every stopped download off the list.
    func purgeDownloadResults() -> JSONValue {
        queue.remove(queue.ids(in: [.complete, .failed, .cancelled]))
        return "OK"
    }

    /// `removeDownloadResult(gid)`.
    func removeDownloadResult(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard download.state.isFinal else { throw RPCError("download \(download.id) has not stopped") }
        queue.remove(download.id)
        return "OK"
    }

    /// `saveSession()`: the queue to the `--save-session` file.
    func saveSession() throws(RPCError) -> JSONValue {
        guard let save = settings.saveSession else {
            throw RPCError("no session file: start the daemon with --save-session FILE")
        }
        do {
            try save()
        } catch {
            throw RPCError("the session could not be saved: \(RPCError.shown("\(error)"))")
        }
        return "OK"
    }
}
