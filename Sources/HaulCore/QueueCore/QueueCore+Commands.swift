import HaulNet

// MARK: - Commands

/// The user's commands: each changes the queue and admits what can now run.
extension QueueCore {
    mutating func add(_ batch: [Download]) {
        var downloads = batch
        let start = state.downloads.count
        // Admission had looked at every download before these: it goes on from the first
        // queued one of them (a million paused entries are not looked at one by one).
        if state.scanFrom >= start {
            state.scanFrom = start + (downloads.firstIndex { $0.state == .queued } ?? downloads.count)
        }
        state.downloads.append(&downloads)
        emit(.added(downloads))
        if state.hasPriorities || downloads.contains(where: { $0.options.priority ?? 0 != 0 }) {
            state.hasPriorities = true
            queueByPriority(downloads, after: start)
        }
        admit()
    }

    /// Moves each of `added` (the downloads from index `start` on) ahead of the first waiting
    /// download before them of lower priority; those of one priority keep their order.
    private mutating func queueByPriority(_ added: [Download], after start: Int) {
        let priority = { (download: Download) in download.options.priority ?? 0 }
        var inserted = 0
        var scan = 0
        for download in added.enumerated().sorted(by: {
            (priority($0.element), -$0.offset) > (priority($1.element), -$1.offset)
        }).map(\.element) {
            // Where waiting downloads of lower priority begin, among those queued before.
            while scan < start,
                state.downloads[position: scan + inserted].state != .queued
                    || priority(state.downloads[position: scan + inserted]) >= priority(download)
            {
                scan += 1
            }
            let target = scan + inserted
            inserted += 1
            guard let from = state.downloads.index(of: download.id), from != target else { continue }
            state.downloads.move(download.id, to: target)
            state.scanFrom = min(state.scanFrom, target)
            emit(.moved(id: download.id, to: target))
        }
    }

    /// Applies `change` when the download's state is one of `states`; an active download's
    /// connections are stopped when the change takes it out of `active`.
    mutating func update(_ id: GID, when states: Set<Download.State>, _ change: (inout Download) -> Void) {
        guard var download = state.downloads[id], states.contains(download.state) else { return }
        change(&download)
        if download.state != .active { stopAttempt(id) }
        state.runs[id]?.waiting = false
        file(download)
        if download.state == .queued { state.markAdmittable(id) }
        admit()
    }

    /// Queues a failed or cancelled download again, with a fresh count of attempts.
    mutating func retry(_ id: GID) {
        update(id, when: [.failed, .cancelled]) { download in
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    /// Gives a download the login to answer its server's challenge with, and queues it again,
    /// with a fresh count of attempts, if it had failed or was cancelled.
    mutating func authenticate(_ id: GID, user: String, password: String) {
        update(id, when: [.queued, .active, .paused, .failed, .cancelled]) { download in
            // An FTP server's login is the FTP one (aria2's ftp-user), a web server's the HTTP one.
            let uri = download.uris.first?.lowercased() ?? ""
            if uri.hasPrefix("ftp://") || uri.hasPrefix("ftps://") {
                download.options.ftpUser = user
                download.options.ftpPasswd = password
            } else {
                download.options.httpUser = user
                download.options.httpPasswd = password
            }
            guard download.state == .failed || download.state == .cancelled else { return }
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    /// Gives download `id` the options `changed` over its own (a header list given replaces its
    /// own). A waiting, paused or ended one keeps its place; an active one starts its attempt
    /// again with them, keeping what it received, as aria2 restarts one.
    mutating func changeOptions(_ id: GID, _ changed: DownloadOptions) {
        guard let current = state.downloads[id] else { return }
        var options = changed.merged(over: current.options)
        if !changed.headers.isEmpty { options.headers = changed.headers }
        update(id, when: [.queued, .active, .paused, .failed, .cancelled, .complete]) { download in
            download.options = options
            if download.state == .active { download.state = .queued }
        }
    }

    /// aria2's `changeUri` on download `id`'s URIs (`URIList.changed`). What was received stays:
    /// the next attempt continues it from the new mirrors when their file is the same
    /// (`ResumeRule`), as when refreshing an expired link. A source less trusted than the one that
    /// added the download sends it where that one's credentials were not given for: the download
    /// loses them (secret headers, users, passwords) and becomes that source's (`OptionSource.isUsers`).
    mutating func changeURIs(
        _ id: GID, removing: [String], adding: [String], at position: Int?, by source: OptionSource
    ) {
        guard var download = state.downloads[id] else { return }
        download.uris = download.uris.changed(removing: removing, adding: adding, at: position).uris
        if source > download.options.addedBy {
            download.options.values = download.options.values.withoutCredentials
            download.options.source = source
        }
        file(download)
    }

    mutating func setMaxDownloadLimit(_ id: GID, _ bytesPerSecond: Int64?) {
        guard var download = state.downloads[id] else { return }
        download.options.maxDownloadLimit = bytesPerSecond.map { SpeedLimit(bytesPerSecond: $0) }
        file(download)
        shareSpeedLimit(id, lifting: true)
        retuneTorrent(id)
    }

    /// Options that change without a new attempt (`DownloadOption.Change.live`: speed limits,
    /// seeding's ratio and time, a torrent's files and peers), merged over download `id`'s own: a
    /// running transfer shares the new speed limit at once, a running torrent is given them all.
    mutating func changeLiveOptions(_ id: GID, _ changed: DownloadOptions) {
        guard var download = state.downloads[id] else { return }
        download.options = changed.merged(over: download.options)
        file(download)
        if changed.maxDownloadLimit != nil { shareSpeedLimit(id, lifting: true) }
        retuneTorrent(id)
    }

    /// Running torrent `id` (if it runs) takes the options it has now.
    private mutating func retuneTorrent(_ id: GID) {
        guard state.torrents[id] != nil, let download = state.downloads[id] else { return }
        ask(.retuneTorrent(id, options(of: download)))
    }

    /// Moves a download in the queue order; a download moved ahead of others is admitted first.
    mutating func move(_ id: GID, _ move: DownloadQueue.Move) {
        guard let from = state.downloads.index(of: id) else { return }
        let to =
            switch move {
            case .up: max(from - 1, 0)
            case .down: min(from + 1, state.downloads.count - 1)
            case .top: 0
            case .bottom: state.downloads.count - 1
            case .to(let index): min(max(index, 0), state.downloads.count - 1)
            }
        guard to != from else { return }
        state.downloads.move(id, to: to)
        state.scanFrom = min(state.scanFrom, from, to)
        emit(.moved(id: id, to: to))
        admit()
    }

    /// Takes downloads off the queue, in one pass over the queue order; their connections stop.
    mutating func remove(_ ids: [GID]) {
        let (gone, first) = state.downloads.remove(ids)
        guard !gone.isEmpty else { return }
        state.scanFrom = min(state.scanFrom, first)
        for id in gone {
            state.runs.removeValue(forKey: id)
            emit(.removed(id: id))
            stopAttempt(id)
        }
        admit()
    }
}
