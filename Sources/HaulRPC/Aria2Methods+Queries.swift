import HaulCore
import HaulNet
import HaulText
import HaulTorrent

// MARK: - Aria2Methods: reading the queue

extension Aria2Methods {
    /// `tellStatus(gid[, keys])`.
    func tellStatus(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        return record(of: download, keys: try params.strings(1, "keys").map(Set.init))
    }

    /// `getFiles(gid)`: a torrent's files (once known), else the download's one file.
    func files(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        if download.torrentLink != nil, let detail = queue.torrentDetail(of: download.id, .files),
            !detail.files.isEmpty
        {
            return .array(Aria2Status.files(of: download, in: detail))
        }
        return [Aria2Status.file(of: download)]
    }

    /// `getPeers(gid)`: a running torrent's peers; none for any other download.
    func peers(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard download.torrentLink != nil, let detail = queue.torrentDetail(of: download.id, .peers) else { return [] }
        return .array(Aria2Status.peers(in: detail))
    }

    /// `download`'s record, with a torrent's detail when `keys` asks for what needs it (its
    /// files, pieces or metainfo: each a wait for libtorrent's network thread while it runs).
    private func record(of download: Download, keys: Set<String>?) -> JSONValue {
        var parts: TorrentDetail.Parts = []
        if download.torrentLink != nil {
            let wants = { (key: String) in keys?.contains(key) ?? true }
            if wants("files") || wants("bittorrent") { parts.insert(.files) }
            if wants("bittorrent") { parts.insert(.trackers) }
            if wants("bitfield"), download.state == .active { parts.insert(.pieces) }
        }
        let detail = parts.isEmpty ? nil : queue.torrentDetail(of: download.id, parts)
        return Aria2Status.record(of: download, activity: queue.activity(download.id), torrent: detail, keys: keys)
    }

    /// `tellActive([keys])`.
    func tellActive(_ params: RPCParams) -> JSONValue {
        let keys = (try? params.strings(0, "keys")).flatMap { $0 }.map(Set.init)
        return records(queue.ids(in: [.active]), keys: keys)
    }

    /// `tellWaiting(offset, num[, keys])` and `tellStopped`: `num` downloads in `states` from
    /// `offset` in queue order; a negative offset counts from the last, and the list then runs
    /// backwards, as aria2's does.
    func tellList(_ params: RPCParams, states: Set<Download.State>) throws(RPCError) -> JSONValue {
        let offset = try params.integer(0, "offset")
        let count = try params.integer(1, "num")
        guard count >= 0 else { throw .invalidParams("num (parameter 2) must not be negative") }
        let keys = try params.strings(2, "keys").map(Set.init)
        let ids = queue.ids(in: states)
        return records(Aria2Methods.window(of: ids, offset: offset, count: count), keys: keys)
    }

    /// The `count` elements of `list` from `offset`; from the end and backwards when `offset`
    /// is negative (-1 is the last).
    static func window<Element>(of list: [Element], offset: Int, count: Int) -> [Element] {
        guard count > 0 else { return [] }
        if offset >= 0 {
            guard offset < list.count else { return [] }
            return Array(list[offset..<min(offset + min(count, list.count), list.count)])
        }
        let start = list.count + offset
        guard start >= 0 else { return [] }
        return Array(list[max(start - min(count, list.count) + 1, 0)...start].reversed())
    }

    private func records(_ ids: [GID], keys: Set<String>?) -> JSONValue {
        .array(
            ids.compactMap { id in queue.download(id).map { record(of: $0, keys: keys) } })
    }

    /// `getServers(gid)`: the one server of an active download.
    func servers(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        guard download.state == .active, download.uris.indices.contains(download.attemptURIIndex) else {
            throw RPCError("download \(download.id) is not active")
        }
        let uri = Aria2Status.uris(of: download)[download.attemptURIIndex]
        let server: JSONValue = [
            "uri": uri.object?["uri"] ?? "", "currentUri": uri.object?["uri"] ?? "",
            "downloadSpeed": .number(Int64(saturating: queue.activity(download.id)?.speed ?? 0)),
        ]
        return [["index": "1", "servers": [server]]]
    }

    /// `getGlobalStat()`.
    func globalStat() -> JSONValue {
        let active = queue.ids(in: [.active])
        let activities = active.map { queue.activity($0) }
        let speed = activities.reduce(0.0) { $0 + ($1?.speed ?? 0) }
        let upload = activities.reduce(0.0) { $0 + ($1?.torrent?.uploadSpeed ?? 0) }
        let stopped = queue.count(in: [.complete, .failed, .cancelled])
        return [
            "downloadSpeed": .number(Int64(saturating: speed)), "uploadSpeed": .number(Int64(saturating: upload)),
            "numActive": .number(active.count),
            "numWaiting": .number(queue.count(in: [.queued, .paused])), "numStopped": .number(stopped),
            "numStoppedTotal": .number(stopped),
        ]
    }
}
