import HaulCore
import HaulText

// MARK: - DetailView

/// The selected download in full, below the queue: URIs, destination, state and attempts, the
/// HTTP status and key headers, the redirect chain, the last error, dropped mirrors, a split
/// download's live connections (range, progress, speed, mirror), how much of the start is
/// contiguous, the checksum, and a map of its byte ranges; a torrent's swarm, files, peers,
/// trackers and a map of its pieces (`DetailView+Torrent`). Everything a server or a peer sent is
/// drawn with control characters made visible.
enum DetailView {
    /// The columns of a line's label.
    static let labelWidth = 15

    /// One line of the pane: its label (empty on a wrapped line's later rows), text and role.
    typealias Line = (label: String, text: String, role: Role)

    static func draw(_ state: AppState, into grid: inout CellGrid, top: Int) {
        let height = state.detailHeight
        for row in 0..<height { grid.fill(x: 0, y: top + row, count: grid.width, role: .row) }
        grid.put(String(repeating: "─", count: grid.width), x: 0, y: top, role: .border)
        guard let download = state.selectedDownload else {
            grid.put(" no download selected ", x: 2, y: top, role: .muted)
            return
        }
        grid.put(
            " \(TextSanitizer.visible(AppState.name(of: download))) ", x: 2, y: top, role: .detailLabel,
            limit: grid.width - 2)
        let rangeRow = top + height - 1
        for (index, line) in lines(of: download, in: state, width: grid.width).enumerated()
        where top + 1 + index < rangeRow {
            let y = top + 1 + index
            grid.put(line.label, x: 1, y: y, role: .detailLabel, limit: labelWidth)
            grid.put(line.text, x: labelWidth + 1, y: y, role: line.role)
        }
        if let torrent = state.activity[download.id]?.torrent, let shown = state.torrentDetail,
            shown.id == download.id, !shown.detail.pieces.isEmpty
        {
            drawPieceMap(shown.detail.pieces, count: torrent.pieceCount, y: rangeRow, grid: &grid)
        } else {
            drawRangeMap(download, y: rangeRow, labelWidth: labelWidth, grid: &grid)
        }
    }

    /// Every line the pane has for `download` at `width` columns, most telling first (the pane
    /// is as tall as they need, when the queue leaves room: `AppState.detailHeight`).
    static func lines(of download: Download, in state: AppState, width: Int) -> [Line] {
        let textWidth = max(width - labelWidth - 2, 10)
        var lines: [Line] = []
        for (index, uri) in download.uris.enumerated() {
            lines.append((index == 0 ? "URI" : "mirror", uriText(uri), .row))
        }
        lines.append(("saved as", savedAs(download), .row))
        var status = "\(download.state.rawValue), attempt \(download.attempts)"
        if let times = state.retriedByHand[download.id] {
            status += times == 1 ? " (retried by hand)" : " (retried by hand \(times) times)"
        }
        if download.totalBytes >= 0 {
            status += ", \(ByteCount.format(download.bytesDone)) of \(ByteCount.format(download.totalBytes))"
        }
        lines.append(("state", status, QueueListView.role(of: download.state)))
        if state.isTorrent(download) { lines += torrentLines(of: download, in: state) }
        // A torrent's pieces come in any order: its map says what is had.
        if !state.isTorrent(download), let contiguous = contiguousStart(download) {
            lines.append(("from the start", contiguous, .row))
        }
        if let error = download.lastError {
            // Wrapped whole: the end of an error says what to do. An error of an earlier attempt
            // of a download that runs again is history, not its state: muted.
            let failed = download.state == .failed || download.state == .cancelled
            for (index, part) in ScreenRenderer.wrap(TextSanitizer.visible(error), width: textWidth).enumerated() {
                lines.append((index == 0 ? (failed ? "error" : "earlier error") : "", part, failed ? .error : .muted))
            }
        }
        let activity = state.activity[download.id] ?? DownloadActivity()
        if let restart = activity.startedOver {
            for (index, part) in ScreenRenderer.wrap(restart, width: textWidth).enumerated() {
                lines.append((index == 0 ? "restart" : "", part, .error))
            }
        }
        if let hint = activity.hint { lines.append(("hint", hint, .muted)) }
        if let choice = activity.splitChoice { lines.append(("split", choice, .muted)) }
        for dropped in activity.droppedMirrors {
            lines.append(("mirror dropped", TextSanitizer.visible(dropped), .error))
        }
        if download.state == .active {
            for (index, segment) in activity.segments.enumerated() {
                let range =
                    "\(ByteCount.format(segment.range.lowerBound))–\(ByteCount.format(segment.range.upperBound))"
                let progress = "\(ByteCount.format(segment.written)) of \(ByteCount.format(Int64(segment.range.count)))"
                lines.append(
                    (
                        "connection \(index + 1)",
                        "\(range)  \(progress)  \(ByteCount.format(Int64(segment.speed)))/s  "
                            + TextSanitizer.visible(segment.mirror), .row
                    ))
            }
        }
        if let response = activity.response {
            lines.append(
                (
                    "HTTP",
                    TextSanitizer.visible("\(response.httpVersion) \(response.statusCode) \(response.reasonPhrase)"),
                    .row
                ))
            if response.redirectChain.count > 1 {
                lines.append(
                    ("redirects", response.redirectChain.map(TextSanitizer.visible).joined(separator: " → "), .row))
            }
            for header in response.headers {
                lines.append((header.name, TextSanitizer.visible(header.value), .muted))
            }
        }
        if let priority = download.options.priority, priority != 0 {
            lines.append(("priority", "\(priority) (ahead of waiting downloads of lower priority)", .row))
        }
        if let limit = download.options.maxDownloadLimit?.cap {
            lines.append(("speed limit", "\(ByteCount.format(limit))/s", .row))
        }
        if let checksum = download.options.checksum {
            let verdict = download.state == .complete ? "matched" : "checked when complete"
            lines.append(("checksum", "\(checksum.algorithm.rawValue) \(verdict)", .row))
        }
        return lines
    }

    /// How much of the file's start is on disk without a gap (what a player can read while the
    /// rest downloads, with `--stream-piece-selector=inorder`), for an unfinished file of known
    /// size that has a part.
    private static func contiguousStart(_ download: Download) -> String? {
        guard download.totalBytes > 0, download.state != .complete, !download.completed.isEmpty else { return nil }
        let prefix = download.completed.prefixLength
        let percent = Int(saturating: Double(prefix) / Double(download.totalBytes) * 100)
        return "\(ByteCount.format(prefix)) contiguous (\(percent)%)"
    }

    /// The path the file has, or will have: the directory and the name `out` gives, else the
    /// directory and a note that the first response names it.
    private static func savedAs(_ download: Download) -> String {
        if let destination = download.destination { return TextSanitizer.visible(destination) }
        let directory = download.directory.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        guard let out = download.options.out else {
            return TextSanitizer.visible(directory) + " (name from the first response)"
        }
        return TextSanitizer.visible(directory + out)
    }

    /// A URI as shown: any password replaced, control characters visible.
    private static func uriText(_ uri: String) -> String {
        TextSanitizer.visible(Download.displayed(uri))
    }

    /// One cell per slice of the file: █ done, ▌ partly done, · to do.
    private static func drawRangeMap(_ download: Download, y: Int, labelWidth: Int, grid: inout CellGrid) {
        grid.put("ranges", x: 1, y: y, role: .detailLabel)
        let x = labelWidth + 1
        let width = grid.width - x - 1
        guard width > 0 else { return }
        guard download.totalBytes > 0 else {
            grid.put(
                download.completed.isEmpty ? "(size not known yet)" : download.completed.description, x: x, y: y,
                role: .muted)
            return
        }
        let total = Double(download.totalBytes)
        for cell in 0..<width {
            let start = Int64(saturating: Double(cell) / Double(width) * total)
            let end = max(Int64(saturating: Double(cell + 1) / Double(width) * total), start.adding(saturating: 1))
            let covered = download.completed.ranges.reduce(Int64(0)) { sum, range in
                sum + max(0, min(range.upperBound, end) - max(range.lowerBound, start))
            }
            let mark = covered >= end - start ? "█" : covered > 0 ? "▌" : "·"
            grid.put(mark, x: x + cell, y: y, role: covered > 0 ? .rangeDone : .rangeTodo)
        }
    }
}
