import HaulCore
import HaulText
import HaulTorrent

// MARK: - Torrents

extension AppState {
    /// Whether `download` is a torrent: its link says so (this queue's), or its activity (a
    /// daemon's).
    func isTorrent(_ download: Download) -> Bool {
        download.torrentLink != nil || activity[download.id]?.torrent != nil
    }

    /// The selected torrent whose detail pane shows, if one does.
    private var shownTorrent: Download? {
        guard showDetail, let download = selectedDownload, isTorrent(download) else { return nil }
        return download
    }

    /// Asks for the shown torrent's detail (each tick, and when its pane opens).
    func askForTorrentDetail() -> [Effect] {
        shownTorrent.map { [.askTorrentDetail($0.id)] } ?? []
    }

    /// Keeps `detail` when it is the selected download's (an answer for a row left since is
    /// passed over); the file cursor stays on a file.
    mutating func showTorrentDetail(_ detail: TorrentDetail?, of id: GID) {
        guard id == selected else { return }
        if torrentDetail?.id != id { fileCursor = 0 }
        torrentDetail = detail.map { (id, $0) }
        fileCursor = min(fileCursor, max((detail?.files.count ?? 0) - 1, 0))
    }

    /// The selected torrent's files as last asked for (none for another row).
    var shownFiles: [TorrentFile] {
        guard let shown = torrentDetail, shown.id == selected else { return [] }
        return shown.detail.files
    }

    /// `[` and `]`: the previous or next file of the selected torrent; the pane opens.
    mutating func moveFileCursor(by delta: Int) -> [Effect] {
        guard let download = selectedDownload, isTorrent(download) else {
            say("[ and ] move between a torrent's files: select a torrent", error: true)
            return []
        }
        let opened = !showDetail
        showDetail = true
        keepSelectionInView()
        let files = shownFiles
        if !files.isEmpty { fileCursor = min(max(fileCursor + delta, 0), files.count - 1) }
        return opened ? askForTorrentDetail() : []
    }

    /// `f`: downloads or skips the file under the cursor (the torrent's `select-file`, at once).
    mutating func toggleFile() -> [Effect] {
        let files = shownFiles
        guard let download = selectedDownload, files.indices.contains(fileCursor) else {
            say("f ticks a torrent's file: open its detail (Enter) once its files are known", error: true)
            return []
        }
        let selected = Set(files.indices.filter { files[$0].priority > 0 }.map { $0 + 1 })
        let number = fileCursor + 1
        let next = selected.contains(number) ? selected.subtracting([number]) : selected.union([number])
        guard let selection = FileSelection(indices: next) else {
            say("a torrent downloads at least one file: tick another first", error: true)
            return []
        }
        var options = DownloadOptions()
        options.selectFile = selection
        torrentDetail?.detail.files[fileCursor].priority = next.contains(number) ? 4 : 0
        let name = TextSanitizer.visible(files[fileCursor].path)
        say("\(next.contains(number) ? "downloading" : "skipping") \(name)", error: false)
        return [.changeLiveOptions(download.id, options)]
    }

    /// `S`: a seeding torrent stops seeding and is done (its seed time set to 0).
    mutating func stopSeeding() -> [Effect] {
        guard let download = selectedDownload, download.state == .active,
            activity[download.id]?.torrent?.seeding == true
        else {
            say("S stops a torrent that seeds: select one", error: true)
            return []
        }
        var options = DownloadOptions()
        options.seedTime = 0
        say("\(TextSanitizer.visible(download.shownName)) stops seeding", error: false)
        return [.changeLiveOptions(download.id, options)]
    }
}
