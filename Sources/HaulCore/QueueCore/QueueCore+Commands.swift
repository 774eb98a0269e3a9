import HaulNet

// MARK: - Commands

/// The user's commands: each changes the queue and admits what can now run.
extension QueueCore {
    mutating func add(_ batch: [Download]) {
        var downloads = batch
        let start = state.order.count
        // Admission had looked at every download before these: it goes on from the first
        // queued one of them (a million paused entries are not looked at one by one).
        if state.scanFrom >= start {
            state.scanFrom = start + (downloads.firstIndex { $0.state == .queued } ?? downloads.count)
        }
        state.downloads.append(&downloads)
        state.position.reserveCapacity(state.position.count + downloads.count)
        state.order.reserveCapacity(state.order.count + downloads.count)
        for download in downloads {
            state.position[download.id] = state.order.count
            state.order.append(download.id)
        }
        emit(.added(downloads))
        admit()
    }

    /// Applies `change` when the download's state is one of `states`; an active download's
    /// connections are stopped when the change takes it out of `active`.
    mutating func update(_ id: String, when states: Set<Download.State>, _ change: (inout Download) -> Void) {
        guard var download = state.downloads[id], states.contains(download.state) else { return }
        change(&download)
        if download.state != .active { stopAttempt(id) }
        state.waiting.remove(id)
        file(download)
        if download.state == .queued { state.markAdmittable(id) }
        admit()
    }

    /// Queues a failed or cancelled download again, with a fresh count of attempts.
    mutating func retry(_ id: String) {
        update(id, when: [.failed, .cancelled]) { download in
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    /// Gives a download the login to answer its server's challenge with, and queues it again,
    /// with a fresh count of attempts, if it had failed or was cancelled.
    mutating func authenticate(_ id: String, user: String, password: String) {
        update(id, when: [.queued, .active, .paused, .failed, .cancelled]) { download in
            download.options.httpUser = user
            download.options.httpPasswd = password
            guard download.state == .failed || download.state == .cancelled else { return }
            download.state = .queued
            download.attempts = 0
            download.lastError = nil
        }
    }

    mutating func setMaxDownloadLimit(_ id: String, _ bytesPerSecond: Int64?) {
        guard var download = state.downloads[id] else { return }
        download.options.maxDownloadLimit = bytesPerSecond
        file(download)
        shareSpeedLimit(id, lifting: true)
    }

    /// Moves a download in the queue order; a download moved ahead of others is admitted first.
    mutating func move(_ id: String, _ move: DownloadQueue.Move) {
        guard let from = state.position[id] else { return }
        let to =
            switch move {
            case .up: max(from - 1, 0)
            case .down: min(from + 1, state.order.count - 1)
            case .top: 0
            case .bottom: state.order.count - 1
            }
        guard to != from else { return }
        state.order.remove(at: from)
        state.order.insert(id, at: to)
        for index in min(from, to)...max(from, to) { state.position[state.order[index]] = index }
        state.scanFrom = min(state.scanFrom, from, to)
        emit(.moved(id: id, to: to))
        admit()
    }

    /// Takes downloads off the queue, in one pass over the queue order; their connections stop.
    mutating func remove(_ ids: [String]) {
        let gone = ids.filter { state.downloads.removeValue(forKey: $0) != nil }
        guard !gone.isEmpty else { return }
        let goneSet = Set(gone)
        let first = gone.compactMap { state.position[$0] }.min() ?? 0
        state.order.removeAll { goneSet.contains($0) }
        for id in gone { state.position.removeValue(forKey: id) }
        for index in first..<state.order.count { state.position[state.order[index]] = index }
        state.scanFrom = min(state.scanFrom, first)
        for id in gone {
            state.waiting.remove(id)
            state.activity.removeValue(forKey: id)
            emit(.removed(id: id))
            stopAttempt(id)
        }
        admit()
    }
}
