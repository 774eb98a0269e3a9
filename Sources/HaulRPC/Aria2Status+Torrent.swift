import HaulCore
import HaulText
import HaulTorrent

// MARK: - Aria2Status: torrents

extension Aria2Status {
    /// The fields aria2's `tellStatus` adds for a torrent: its hash, swarm, upload and, once its
    /// metadata is known, `bittorrent` (announce list, comment, creation date, mode, name); the
    /// pieces and files from `detail` when it runs.
    static func torrentFields(
        of download: Download, activity: DownloadActivity?, detail: TorrentDetail?
    ) -> [String: JSONValue] {
        let torrent = activity?.torrent
        let running = download.state == .active
        var fields: [String: JSONValue] = [
            "infoHash": .string([torrent?.infoHash, detail?.infoHash].compactMap { $0 }.first { !$0.isEmpty } ?? ""),
            "numSeeders": .number(running ? torrent?.seeds ?? 0 : 0),
            "seeder": torrent?.seeding == true ? "true" : "false",
            "uploadLength": .number(torrent?.uploaded ?? 0),
            "uploadSpeed": .number(running ? Int64(saturating: torrent?.uploadSpeed ?? 0) : 0),
            "connections": .number(running ? torrent?.peers ?? 0 : 0),
        ]
        if let torrent, torrent.pieceCount > 0 {
            fields["pieceLength"] = .number(torrent.pieceLength)
            fields["numPieces"] = .number(torrent.pieceCount)
        }
        if running, torrent?.checking == true { fields["verifiedLength"] = .number(download.bytesDone) }
        var bittorrent: [String: JSONValue] = [:]
        if let detail {
            bittorrent["announceList"] = .array(
                detail.announceList.map { tier in .array(tier.map { .string(TextSanitizer.visible($0)) }) })
            if !detail.comment.isEmpty { bittorrent["comment"] = .string(TextSanitizer.visible(detail.comment)) }
            if detail.creationDate > 0 { bittorrent["creationDate"] = .int(detail.creationDate) }
            if let name = detail.name {
                bittorrent["mode"] = detail.isMultiFile ? "multi" : "single"
                bittorrent["info"] = ["name": .string(TextSanitizer.visible(name))]
            }
            if !detail.pieces.isEmpty { fields["bitfield"] = .string(HexDigits.lowercase(detail.pieces)) }
            if !detail.files.isEmpty { fields["files"] = .array(files(of: download, in: detail)) }
        }
        fields["bittorrent"] = .object(bittorrent)
        return fields
    }

    /// A running torrent's files as `getFiles` lists them, numbered from 1 (pad files aside), a
    /// file skipped by `select-file` not `selected`.
    static func files(of download: Download, in detail: TorrentDetail) -> [JSONValue] {
        let directory = download.directory ?? "."
        return detail.files.enumerated().map { index, file in
            [
                "index": .number(index + 1),
                "path": .string(TextSanitizer.visible(directory + "/" + file.path)),
                "length": .number(file.size),
                "completedLength": .number(file.done),
                "selected": file.priority > 0 ? "true" : "false",
                "uris": [],
            ]
        }
    }

    /// A torrent's peers as `getPeers` lists them: the peer id percent-encoded, the pieces it has
    /// in hex, the speeds each way, who chokes whom.
    static func peers(in detail: TorrentDetail) -> [JSONValue] {
        detail.peers.map { peer in
            [
                "peerId": .string(percentEncoded(peer.peerID)),
                "ip": .string(TextSanitizer.visible(peer.ip)),
                "port": .number(peer.port),
                "bitfield": .string(HexDigits.lowercase(peer.bitfield)),
                "amChoking": peer.amChoking ? "true" : "false",
                "peerChoking": peer.peerChoking ? "true" : "false",
                "downloadSpeed": .number(peer.downloadRate),
                "uploadSpeed": .number(peer.uploadRate),
                "seeder": peer.isSeed ? "true" : "false",
            ]
        }
    }

    /// `bytes` percent-encoded but for letters and digits, as aria2 gives a peer id.
    static func percentEncoded(_ bytes: [UInt8]) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in bytes {
            if unreserved.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}

// MARK: - Reading a daemon's torrent

extension Aria2Status {
    /// A torrent's upload, swarm and seeding as a daemon's status record says them (haul's or
    /// aria2c's); nil for a record without an info hash (not a torrent's).
    package static func torrentActivity(from record: JSONValue) -> TorrentActivity? {
        guard let fields = record.object, let hash = fields["infoHash"]?.string, !hash.isEmpty else { return nil }
        let number = { (key: String) in max(fields[key]?.integer ?? 0, 0) }
        return TorrentActivity(
            infoHash: hash, uploadSpeed: Double(number("uploadSpeed")), uploaded: Int64(number("uploadLength")),
            peers: number("connections"), seeds: number("numSeeders"),
            seeding: fields["seeder"]?.string == "true" && fields["status"]?.string == "active",
            pieceCount: number("numPieces"), pieceLength: number("pieceLength"))
    }

    /// The detail of a torrent as a daemon (haul's or aria2c's) describes it in `tellStatus` and
    /// `getPeers`; nil for a record that is not a torrent's. Text in it is another program's: it
    /// is made safe where it is drawn.
    package static func torrentDetail(from status: JSONValue, peers: JSONValue) -> TorrentDetail? {
        guard let fields = status.object, let bittorrent = fields["bittorrent"]?.object else { return nil }
        var detail = TorrentDetail()
        detail.infoHash = fields["infoHash"]?.string ?? ""
        detail.comment = bittorrent["comment"]?.string ?? ""
        detail.creationDate = Int64(bittorrent["creationDate"]?.integer ?? 0)
        for (tier, urls) in (bittorrent["announceList"]?.array ?? []).enumerated() {
            for url in urls.array ?? [] {
                if let url = url.string { detail.trackers.append(TorrentTracker(url: url, tier: tier)) }
            }
        }
        let directory = (fields["dir"]?.string ?? "") + "/"
        detail.files = (fields["files"]?.array ?? []).compactMap { file in
            guard let file = file.object, let path = file["path"]?.string else { return nil }
            return TorrentFile(
                path: path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path,
                size: Int64(file["length"]?.integer ?? 0), done: Int64(file["completedLength"]?.integer ?? 0),
                priority: file["selected"]?.string == "false" ? 0 : 4)
        }
        detail.pieces = bytes(ofHex: fields["bitfield"]?.string ?? "")
        detail.peers = (peers.array ?? []).compactMap { peer in
            guard let peer = peer.object, let ip = peer["ip"]?.string else { return nil }
            return TorrentPeer(
                ip: ip, port: peer["port"]?.integer ?? 0,
                peerID: peer["peerId"]?.string.flatMap { HexDigits.percentDecoded($0[...]) } ?? [],
                bitfield: bytes(ofHex: peer["bitfield"]?.string ?? ""),
                downloadRate: peer["downloadSpeed"]?.integer ?? 0, uploadRate: peer["uploadSpeed"]?.integer ?? 0,
                isSeed: peer["seeder"]?.string == "true", amChoking: peer["amChoking"]?.string != "false",
                peerChoking: peer["peerChoking"]?.string != "false")
        }
        return detail
    }

    /// The bytes `text`'s hex digits spell (two a byte); a digit that is not one ends them.
    static func bytes(ofHex text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            guard let value = HexDigits.value(of: character) else { break }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
