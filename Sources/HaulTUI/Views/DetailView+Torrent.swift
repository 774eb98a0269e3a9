import HaulCore
import HaulText
import HaulTorrent

// MARK: - DetailView: torrents

extension DetailView {
    /// Files shown at once around the cursor; the rest are counted.
    static let filesShown = 8
    /// Peers shown, fastest first; the rest are counted.
    static let peersShown = 5

    /// A torrent's lines: its hash, swarm, upload and ratio, whether it seeds, then its files
    /// (`▸` the one `[` `]` move to, `[x]` downloaded, `[ ]` skipped), its fastest peers and its
    /// trackers, as last asked for. Every name a torrent or a peer gave is drawn made visible.
    static func torrentLines(of download: Download, in state: AppState) -> [Line] {
        var lines: [Line] = []
        let torrent = state.activity[download.id]?.torrent
        let detail = state.torrentDetail.flatMap { $0.id == download.id ? $0.detail : nil }
        let hash = [torrent?.infoHash, detail?.infoHash].compactMap { $0 }.first { !$0.isEmpty }
        if let hash { lines.append(("info hash", TextSanitizer.visible(hash), .muted)) }
        if let torrent {
            if download.state == .active {
                lines.append(
                    ("swarm", "\(torrent.peers) peer\(torrent.peers == 1 ? "" : "s"), \(torrent.seeds) seeding", .row))
            }
            let ratio = String(format: "%.2f", torrent.ratio(of: download.totalBytes))
            var upload = "\(ByteCount.format(torrent.uploaded)) sent, ratio \(ratio)"
            if download.state == .active { upload += ", \(ScreenRenderer.speed(torrent.uploadSpeed))" }
            lines.append(("upload", upload, .row))
            if torrent.checking { lines.append(("checking", "the pieces on disk against their hashes", .muted)) }
            if download.state == .active, torrent.seeding {
                lines.append(("seeding", "until its ratio or seed time is reached (S stops it now)", .muted))
            }
            if torrent.failedBytes > 0 {
                lines.append(
                    ("bad pieces", "\(ByteCount.format(torrent.failedBytes)) failed their hash, fetched again", .error))
            }
        }
        guard let detail else { return lines }
        lines += fileLines(detail.files, cursor: state.fileCursor)
        let peers = detail.peers.sorted { $0.downloadRate + $0.uploadRate > $1.downloadRate + $1.uploadRate }
        for (index, peer) in peers.prefix(peersShown).enumerated() {
            let client = peer.client.isEmpty ? "" : "  " + TextSanitizer.visible(peer.client)
            let rates =
                "↓\(ScreenRenderer.speed(Double(peer.downloadRate))) ↑\(ScreenRenderer.speed(Double(peer.uploadRate)))"
            lines.append(
                (
                    index == 0 ? "peers" : "",
                    "\(TextSanitizer.visible(peer.ip)):\(peer.port)\(client)  \(rates)\(peer.isSeed ? "  seed" : "")",
                    .row
                ))
        }
        if peers.count > peersShown { lines.append(("", "and \(peers.count - peersShown) more", .muted)) }
        for (index, tracker) in detail.trackers.enumerated() {
            let said = tracker.message.isEmpty ? "" : " — " + tracker.message
            lines.append(
                (
                    index == 0 ? "trackers" : "", TextSanitizer.visible(tracker.url + said),
                    tracker.message.isEmpty ? .row : .muted
                ))
        }
        return lines
    }

    /// The files around `cursor`, `filesShown` of them: `▸` the cursor's, `[x]` or `[ ]`, the
    /// path, its size and how much of it is here.
    private static func fileLines(_ files: [TorrentFile], cursor: Int) -> [Line] {
        guard !files.isEmpty else { return [] }
        let first = min(max(cursor - filesShown / 2, 0), max(files.count - filesShown, 0))
        var lines: [Line] = []
        for index in first..<min(first + filesShown, files.count) {
            let file = files[index]
            // A daemon's numbers are another program's: held at Int's bounds, never trapped on.
            let percent = file.size > 0 ? Int(saturating: Double(file.done) / Double(file.size) * 100) : 100
            let mark = index == cursor ? "▸" : " "
            let tick = file.priority > 0 ? "[x]" : "[ ]"
            lines.append(
                (
                    index == first ? "files (\(files.count))" : "",
                    "\(mark)\(tick) \(TextSanitizer.visible(file.path))  \(ByteCount.format(file.size))  \(percent)%",
                    file.priority > 0 ? .row : .muted
                ))
        }
        let after = files.count - min(first + filesShown, files.count)
        if first > 0 || after > 0 {
            lines.append(("", "\(first) above, \(after) below ([ and ] move, f ticks)", .muted))
        }
        return lines
    }

    /// One cell per slice of the torrent's pieces: █ all had, ▌ some, · none.
    static func drawPieceMap(_ pieces: [UInt8], count claimed: Int, y: Int, grid: inout CellGrid) {
        grid.put("pieces", x: 1, y: y, role: .detailLabel)
        let x = labelWidth + 1
        let width = grid.width - x - 1
        // No more pieces than the bitfield has bits: a daemon's count is another program's, and
        // each piece is looked at once a frame.
        let count = min(claimed, pieces.count * 8)
        guard width > 0, count > 0 else { return }
        let had = { (piece: Int) -> Bool in
            piece / 8 < pieces.count && pieces[piece / 8] & (0x80 >> UInt8(piece % 8)) != 0
        }
        for cell in 0..<width {
            let start = cell * count / width
            let end = max((cell + 1) * count / width, start + 1)
            let have = (start..<min(end, count)).filter(had).count
            let mark = have == end - start ? "█" : have > 0 ? "▌" : "·"
            grid.put(mark, x: x + cell, y: y, role: have > 0 ? .rangeDone : .rangeTodo)
        }
    }
}
