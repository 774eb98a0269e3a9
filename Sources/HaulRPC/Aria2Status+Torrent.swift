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
            if !detail.pieces.isEmpty { fields["bitfield"] = .string(hex(detail.pieces)) }
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
                "bitfield": .string(hex(peer.bitfield)),
                "amChoking": peer.amChoking ? "true" : "false",
                "peerChoking": peer.peerChoking ? "true" : "false",
                "downloadSpeed": .number(peer.downloadRate),
                "uploadSpeed": .number(peer.uploadRate),
                "seeder": peer.isSeed ? "true" : "false",
            ]
        }
    }

    /// `bytes` as lowercase hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
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
