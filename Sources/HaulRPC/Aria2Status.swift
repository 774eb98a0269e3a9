import Foundation
import HaulCore
import HaulNet
import HaulText
import HaulTorrent

// MARK: - Aria2Status

/// A download as aria2's `tellStatus` describes it, with the fields its clients read (aria2p,
/// AriaNg): numbers as decimal strings, one entry in `files`. Text a server or a client chose
/// (names, error messages) has its control characters made visible; URIs lose their passwords.
package enum Aria2Status {
    /// aria2's status of a download in `state`.
    package static func status(of state: Download.State) -> String {
        switch state {
        case .queued: "waiting"
        case .active: "active"
        case .paused: "paused"
        case .complete: "complete"
        case .failed: "error"
        case .cancelled: "removed"
        }
    }

    /// The piece length aria2 reports for an HTTP download: 1 MiB.
    static let pieceLength: Int64 = 1 << 20

    /// `download`'s record; with `keys`, only those fields (aria2's `keys` parameter). A torrent's
    /// has aria2's BitTorrent fields too, its files and pieces from `torrent` while it runs.
    package static func record(
        of download: Download, activity: DownloadActivity?, torrent: TorrentDetail? = nil, keys: Set<String>? = nil
    ) -> JSONValue {
        let total = max(download.totalBytes, 0)
        let running = download.state == .active
        var fields: [String: JSONValue] = [
            "gid": .gid(download.id),
            "status": .string(status(of: download.state)),
            "totalLength": .number(total),
            "completedLength": .number(download.bytesDone),
            "uploadLength": "0",
            "downloadSpeed": .number(running ? Int64(saturating: activity?.speed ?? 0) : 0),
            "uploadSpeed": "0",
            "pieceLength": .number(pieceLength),
            "numPieces": .number(total.dividedRoundingUp(by: pieceLength)),
            "connections": .number(running ? max(activity?.connections ?? 0, 1) : 0),
            "dir": .string(TextSanitizer.visible(download.directory ?? "")),
            "files": .array([file(of: download)]),
        ]
        // Made only when asked for: a list's poll asks for other keys, and it is long.
        if keys?.contains("bitfield") ?? true, let bitfield = bitfield(of: download) {
            fields["bitfield"] = .string(bitfield)
        }
        if download.torrentLink != nil {
            fields.merge(torrentFields(of: download, activity: activity, detail: torrent)) { _, torrent in torrent }
        }
        if download.state == .failed || download.state == .complete || download.errorCode != nil {
            fields["errorCode"] = .number(download.state == .complete ? 0 : (download.errorCode ?? .unknown).rawValue)
            if let message = download.lastError, download.state != .complete {
                fields["errorMessage"] = .string(TextSanitizer.visible(message))
            }
        }
        if let keys { fields = fields.filter { keys.contains($0.key) } }
        return .object(fields)
    }

    /// aria2's `bitfield`: a bit a piece of `pieceLength` (the high bit of the first hex digit
    /// for the first piece), set when the piece is wholly received; for a download of known
    /// size with at most 2^20 pieces (AriaNg draws it in its Pieces tab).
    static func bitfield(of download: Download) -> String? {
        let total = download.totalBytes
        guard total > 0 else { return nil }
        let pieces = total.dividedRoundingUp(by: pieceLength)
        guard pieces <= 1 << 20 else { return nil }
        var bits = [UInt8](repeating: 0, count: Int(pieces.dividedRoundingUp(by: 8)))
        for range in download.completed.ranges {
            let end = min(range.upperBound, total)
            var piece = range.lowerBound.dividedRoundingUp(by: pieceLength)
            while piece < pieces, min((piece + 1) * pieceLength, total) <= end {
                bits[Int(piece / 8)] |= 0x80 >> UInt8(piece % 8)
                piece += 1
            }
        }
        return HexDigits.lowercase(bits)
    }

    /// The download's one file: its path (where it is, else where it is expected), its length
    /// and its mirrors, the one in use marked `used`.
    static func file(of download: Download) -> JSONValue {
        let path =
            download.destination
            ?? download.uris.first.flatMap { uri in
                FileNaming.expectedName(out: download.options.out, uri: uri).map {
                    FileNaming.path(for: $0, in: download.directory ?? ".")
                }
            } ?? ""
        return [
            "index": "1",
            "path": .string(TextSanitizer.visible(path)),
            "length": .number(max(download.totalBytes, 0)),
            "completedLength": .number(download.bytesDone),
            "selected": "true",
            "uris": .array(uris(of: download)),
        ]
    }

    /// The mirrors as `getUris` gives them: each without its password, the current one `used`.
    static func uris(of download: Download) -> [JSONValue] {
        let current = download.state == .active ? download.attemptURIIndex : -1
        return download.uris.enumerated().map { index, uri in
            [
                "uri": .string(TextSanitizer.visible(Download.displayed(uri))),
                "status": index == current ? "used" : "waiting",
            ]
        }
    }
}

// MARK: - Reading a daemon's records

extension Aria2Status {
    /// The download an aria2 status record describes (haul's or aria2c's), with its speed; nil
    /// without a gid of 16 hex digits. Text in it is made safe to draw.
    package static func download(from record: JSONValue) -> (Download, speed: Double)? {
        guard let fields = record.object, let gid = fields["gid"]?.asGID else { return nil }
        let file = fields["files"]?.array?.first?.object
        // aria2 lists a mirror once per connection to it.
        var seen = Set<String>()
        let uris = (file?["uris"]?.array ?? []).compactMap { $0.object?["uri"]?.string }.filter {
            seen.insert($0).inserted
        }
        var download = Download(id: gid, uris: uris)
        download.state = state(of: fields["status"]?.string ?? "")
        // A daemon's numbers are another program's: sizes past `FileSize.largest` are unknown,
        // and no more is done than the whole.
        let total = fields["totalLength"]?.integer.map(Int64.init).flatMap(FileSize.checked) ?? 0
        download.totalBytes = total > 0 ? total : -1
        let done = fields["completedLength"]?.integer.map(Int64.init).flatMap(FileSize.checked) ?? 0
        let kept = total > 0 ? min(done, total) : done
        if kept > 0 { download.completed = ByteRanges([0..<kept]) }
        download.directory = fields["dir"]?.string.map(TextSanitizer.visible)
        if let name = fields["bittorrent"]?.object?["info"]?.object?["name"]?.string,
            let directory = download.directory,
            !name.isEmpty
        {
            // A torrent is named by its folder or its one file, not its first file.
            download.destination = directory + "/" + TextSanitizer.visible(name)
        } else if let path = file?["path"]?.string, !path.isEmpty {
            download.destination = TextSanitizer.visible(path)
        }
        if download.state == .failed {
            let code =
                fields["errorCode"]?.integer.flatMap { Int32(exactly: $0) }.flatMap { ErrorCode(rawValue: $0) }
                ?? .unknown
            download.errorCode = code
            download.lastError = fields["errorMessage"]?.string.map(TextSanitizer.visible) ?? code.meaning
            download.failureNote = code.shortText
        }
        return (download, Double(max(fields["downloadSpeed"]?.integer ?? 0, 0)))
    }

    /// haul's state for aria2's status text.
    static func state(of status: String) -> Download.State {
        switch status {
        case "active": .active
        case "paused": .paused
        case "complete": .complete
        case "error": .failed
        case "removed": .cancelled
        default: .queued
        }
    }
}
