import Foundation
import HaulCore

// MARK: - QueueListView

/// Row 2 holds the column titles; the rows below, one per download: state, name (cut in the
/// middle by display width), size, a progress bar with percent (or why it failed, or when it
/// retries), speed, ETA and connections; with torrents in the queue, their upload speed, seeds
/// and peers, and share ratio too. On a narrow terminal columns drop by priority (see
/// `columns(width:torrents:)`); on a wide one the bar takes half of what the name would get
/// beyond 30.
enum QueueListView {
    /// One column: title, width, and what it shows for a download.
    struct Column {
        let title: String
        let width: Int
        let rightAligned: Bool
        let kind: Kind

        enum Kind { case state, name, size, progress, percent, speed, eta, connections, upload, peers, ratio }
    }

    static let stateWidth = 9

    /// The columns that fit in `width`, name taking what is left. They drop in this order:
    /// connections, a torrent's ratio and peers, ETA, size, upload, the bar (its percent stays),
    /// speed, the percent. The torrent columns are there only when `torrents` is.
    static func columns(width: Int, torrents: Bool = false) -> [Column] {
        // `1023.9 KiB/s` is the widest speed: at 1024 KiB/s it is `1.0 MiB/s`.
        let speed = Column(title: "SPEED", width: 12, rightAligned: true, kind: .speed)
        let bar = Column(title: "PROGRESS", width: 16, rightAligned: false, kind: .progress)
        let percent = Column(title: "%", width: 4, rightAligned: true, kind: .percent)
        let size = Column(title: "SIZE", width: 10, rightAligned: true, kind: .size)
        let eta = Column(title: "ETA", width: 8, rightAligned: true, kind: .eta)
        let connections = Column(title: "C", width: 2, rightAligned: true, kind: .connections)
        let upload = Column(title: "UP", width: 12, rightAligned: true, kind: .upload)
        // Seeds/peers: `12/55`.
        let peers = Column(title: "S/P", width: 7, rightAligned: true, kind: .peers)
        let ratio = Column(title: "RATIO", width: 5, rightAligned: true, kind: .ratio)
        var optional =
            torrents
            ? [speed, upload, bar, size, eta, peers, ratio, connections] : [speed, bar, size, eta, connections]
        let dropping: [Column.Kind] = [.connections, .ratio, .peers, .eta, .size, .upload, .progress, .speed, .percent]
        let minimumName = 16
        for kind in dropping where optional.reduce(stateWidth + 1, { $0 + $1.width + 1 }) + minimumName > width {
            // The bar gives way to its percent.
            optional = optional.flatMap { column in column.kind != kind ? [column] : kind == .progress ? [percent] : []
            }
        }
        var nameWidth = width - optional.reduce(stateWidth + 1) { $0 + $1.width + 1 }
        // The bar is what a user watches: beyond 30 cells of name, it takes half the room.
        let shared = max(nameWidth - 30, 0) / 2
        let columns = optional.map { column in
            guard column.kind == .progress, shared > 0 else { return column }
            nameWidth -= shared
            return Column(title: column.title, width: column.width + shared, rightAligned: false, kind: .progress)
        }
        return [
            Column(title: "STATE", width: stateWidth, rightAligned: false, kind: .state),
            Column(title: "NAME", width: nameWidth, rightAligned: false, kind: .name),
        ] + columns
    }

    static func draw(_ state: AppState, into grid: inout CellGrid) {
        let columns = columns(width: grid.width, torrents: !state.torrentRows.isEmpty)
        grid.fill(x: 0, y: 2, count: grid.width, role: .columnTitle)
        var x = 0
        for column in columns {
            put(column.title, in: column, x: x, y: 2, role: .columnTitle, grid: &grid)
            x += column.width + 1
        }
        let selectedIndex = state.selectedIndex
        for row in 0..<state.listHeight {
            let index = state.scrollTop + row
            let y = AppState.listTop + row
            guard index < state.visible.count, let download = state.downloads[state.visible[index]] else {
                grid.fill(x: 0, y: y, count: grid.width, role: .row)
                continue
            }
            drawRow(
                download, activity: state.activity[download.id] ?? DownloadActivity(), columns: columns, now: state.now,
                y: y, grid: &grid)
            if index == selectedIndex {
                grid.recolor(
                    x: 0, y: y, count: grid.width, role: .selectedRow, keeping: [.progressDone, .progressTodo])
            }
        }
        if state.visible.isEmpty {
            let note =
                state.order.isEmpty
                ? "the queue is empty: press a to add URLs, i to import a queue file"
                : state.isWorkingOutRows
                    ? "looking for '\(TextSanitizer.visible(state.filter))'…"
                    : "no download matches the filter '\(TextSanitizer.visible(state.filter))'"
            grid.put(note, x: 1, y: AppState.listTop, role: .muted)
        }
    }

    private static func drawRow(
        _ download: Download, activity: DownloadActivity, columns: [Column], now: Date, y: Int, grid: inout CellGrid
    ) {
        grid.fill(x: 0, y: y, count: grid.width, role: .row)
        let torrent = activity.torrent
        var x = 0
        for column in columns {
            switch column.kind {
            case .state:
                let seeding = download.state == .active && torrent?.seeding == true
                put(
                    seeding ? "▲ seeding" : label(of: download.state), in: column, x: x, y: y,
                    role: role(of: download.state), grid: &grid)
            case .name:
                let name = TextSanitizer.visible(AppState.name(of: download))
                put(
                    DisplayWidth.middleTruncated(name, to: column.width), in: column, x: x, y: y, role: .row,
                    grid: &grid)
            case .size:
                put(
                    download.totalBytes >= 0 ? ByteCount.format(download.totalBytes) : "?", in: column, x: x, y: y,
                    role: .row, grid: &grid)
            case .progress:
                if let note = note(for: download, now: now) {
                    put(
                        wholeWords(of: note, width: column.width), in: column, x: x, y: y,
                        role: download.state == .failed ? .error : .muted, grid: &grid)
                } else {
                    drawBar(download, x: x, width: column.width, y: y, grid: &grid)
                }
            case .percent:
                let text =
                    note(for: download, now: now).map { wholeWords(of: $0, width: column.width) }
                    ?? percent(download)
                put(text, in: column, x: x, y: y, role: download.state == .failed ? .error : .row, grid: &grid)
            case .speed:
                put(
                    download.state == .active ? ScreenRenderer.speed(activity.speed) : "", in: column, x: x, y: y,
                    role: .speed, grid: &grid)
            case .eta:
                put(
                    ScreenRenderer.eta(download, speed: activity.speed), in: column, x: x, y: y, role: .row, grid: &grid
                )
            case .connections:
                put(
                    download.state == .active && torrent == nil ? String(max(activity.connections, 1)) : "", in: column,
                    x: x, y: y, role: .muted, grid: &grid)
            case .upload:
                put(
                    download.state == .active ? torrent.map { "↑" + ScreenRenderer.speed($0.uploadSpeed) } ?? "" : "",
                    in: column, x: x, y: y, role: .speed, grid: &grid)
            case .peers:
                put(
                    download.state == .active ? torrent.map { "\($0.seeds)/\($0.peers)" } ?? "" : "", in: column, x: x,
                    y: y, role: .muted, grid: &grid)
            case .ratio:
                put(
                    torrent.map { String(format: "%.2f", $0.ratio(of: download.totalBytes)) } ?? "", in: column, x: x,
                    y: y, role: .row, grid: &grid)
            }
            x += column.width + 1
        }
    }

    /// A bar of `width - 5` cells (done, then to do) and the percent after it.
    private static func drawBar(_ download: Download, x: Int, width: Int, y: Int, grid: inout CellGrid) {
        let barWidth = width - 5
        let fraction = AppState.fraction(download)
        let done =
            download.totalBytes > 0 || download.state == .complete
            ? Int((fraction * Double(barWidth)).rounded(.down)) : 0
        grid.fill(x: x, y: y, count: done, role: .progressDone)
        grid.fill(x: x + done, y: y, count: barWidth - done, role: .progressTodo)
        let text = percent(download)
        grid.put(text, x: x + width - DisplayWidth.of(text), y: y, role: .row)
    }

    /// What a row says instead of its bar: why it failed (`503 Service Unavailable`,
    /// `refused`), or when it is tried again (`retry in 12 s`).
    static func note(for download: Download, now: Date) -> String? {
        if download.state == .failed { return download.failureNote ?? download.errorCode?.shortText ?? "failed" }
        guard download.state == .queued, let next = download.nextAttemptAt else { return nil }
        let seconds = max(Int(next.timeIntervalSince(now).rounded(.up)), 0)
        return seconds > 0 ? "retry in \(seconds) s" : "retrying"
    }

    /// The first words of `text` that fit in `width` (`503 Service` of `503 Service
    /// Unavailable`); the first word cut when even it does not fit.
    static func wholeWords(of text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var fitted = ""
        for word in text.split(separator: " ") {
            let candidate = fitted.isEmpty ? String(word) : fitted + " " + word
            guard DisplayWidth.of(candidate) <= width else { break }
            fitted = candidate
        }
        return fitted.isEmpty ? DisplayWidth.prefix(text, width: width) : fitted
    }

    static func percent(_ download: Download) -> String {
        if download.totalBytes <= 0 {
            return download.state == .complete
                ? "100%" : (download.bytesDone > 0 ? ByteCount.format(download.bytesDone) : "")
        }
        return "\(Int(AppState.fraction(download) * 100))%"
    }

    static func label(of state: Download.State) -> String {
        switch state {
        case .queued: "queued"
        case .active: "▶ active"
        case .paused: "‖ paused"
        case .complete: "✔ done"
        case .failed: "✖ failed"
        case .cancelled: "cancelled"
        }
    }

    static func role(of state: Download.State) -> Role {
        switch state {
        case .queued: .queued
        case .active: .active
        case .paused: .paused
        case .complete: .complete
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    private static func put(_ text: String, in column: Column, x: Int, y: Int, role: Role, grid: inout CellGrid) {
        let fitted = DisplayWidth.prefix(text, width: column.width)
        let start = column.rightAligned ? x + column.width - DisplayWidth.of(fitted) : x
        grid.put(fitted, x: start, y: y, role: role, limit: x + column.width)
    }
}
