import HaulNet

// MARK: - State

extension QueueCore {
    /// Every download, and what the core tracks about it as records: one per running attempt
    /// (`Attempt`), one per download this run (`DownloadRun`), one per origin (`OriginTable`).
    /// An attempt begins and ends here (`beginAttempt`, `endAttempt`), where its origin's count
    /// and the count of streams follow it.
    struct State {
        /// Every download, in queue order.
        var downloads = DownloadTable()
        /// The running attempt of every active download (so their count is the active count).
        private(set) var attempts: [GID: Attempt] = [:]
        /// What this run knows of each download beyond its attempt.
        var runs: [GID: DownloadRun] = [:]
        /// Every origin asked this run.
        private(set) var origins = OriginTable()
        /// Hosts that refused before answering, and when each may be tried again.
        var hostRefusals = HostRefusals()

        /// No download before this index of the queue order can be admitted now; it moves back
        /// when one becomes admittable again, so admission does not rescan a long queue.
        var scanFrom = 0
        /// Whether a download with a priority was ever added: until then, downloads are added at
        /// the end without a look at the others.
        var hasPriorities = false
        /// The attempts running as streams beyond -j (`Attempt.isStream`).
        private(set) var streamCount = 0
        /// The number the next planned connection gets.
        var nextConnection = 1
        /// Whether the once-a-second check of idle speeds (`settleSpeeds`) is scheduled.
        var settlingSpeeds = false
        /// The running attempt of every active torrent (`TorrentAttempt`): a torrent has no
        /// connection of haul's.
        private(set) var torrents: [GID: TorrentAttempt] = [:]
        /// The torrents that hold a slot: those still downloading (a seeding one holds none).
        private(set) var downloadingTorrents = 0

        /// The slots taken: attempts of URLs beyond the streams, and torrents still downloading.
        var slotsTaken: Int { attempts.count - streamCount + downloadingTorrents }

        /// Makes room for `count` more downloads.
        mutating func reserveCapacity(adding count: Int) {
            downloads.reserveCapacity(downloads.count + count)
        }

        /// `id` may be admitted again: admission must look at it.
        mutating func markAdmittable(_ id: GID) {
            if let index = downloads.index(of: id) { scanFrom = min(scanFrom, index) }
        }

        // MARK: Attempts

        /// Download `id` begins an attempt whose first connection is `holder`, at `uptime`.
        mutating func beginAttempt(_ id: GID, holder: PlannedConnection, isStream: Bool, at uptime: Double) {
            attempts[id] = Attempt(holder: holder, isStream: isStream)
            if isStream { streamCount += 1 }
            origins.started(holder.hostKey, asked: uptime)
        }

        /// Removes the running attempt of `id` and returns it.
        mutating func endAttempt(_ id: GID) -> Attempt? {
            guard let attempt = attempts.removeValue(forKey: id) else { return nil }
            if attempt.isStream { streamCount -= 1 }
            origins.ended(attempt.holder.hostKey)
            return attempt
        }

        /// Another running connection of split download `id` takes over its slot (and its place in
        /// its origin's count).
        mutating func moveSlot(of id: GID, to connection: PlannedConnection) {
            guard let holder = attempts[id]?.holder else { return }
            origins.ended(holder.hostKey)
            origins.started(connection.hostKey, asked: nil)
            attempts[id]?.holder = connection
        }

        /// Changes the running attempt of `id`, if there is one. Its holder is not replaced here
        /// (`moveSlot` does that).
        mutating func modifyAttempt(_ id: GID, _ change: (inout Attempt) -> Void) {
            guard let index = attempts.index(forKey: id) else { return }
            change(&attempts.values[index])
        }

        /// Origin `key` answered over HTTP/2 (`OriginTable.multiplexes`).
        mutating func learnMultiplexing(_ key: String, at uptime: Double, nearAnswer: Double) -> Bool {
            origins.multiplexes(key, at: uptime, nearAnswer: nearAnswer)
        }

        /// Origin `key` refused an automatic split beyond `connections`.
        mutating func splitRefused(_ key: String, beyond connections: Int) {
            origins.splitRefused(key, beyond: connections)
        }

        // MARK: Torrents

        /// Torrent `id` begins an attempt, holding a slot.
        mutating func beginTorrent(_ id: GID, at uptime: Double) {
            _ = endTorrent(id)
            torrents[id] = TorrentAttempt(startedAt: uptime)
            downloadingTorrents += 1
        }

        /// Torrent `id` has every wanted piece from `uptime` on: it seeds, and gives its slot up.
        mutating func torrentSeeds(_ id: GID, since uptime: Double) {
            guard let attempt = torrents[id], attempt.seedingSince == nil else { return }
            torrents[id]?.seedingSince = uptime
            downloadingTorrents -= 1
        }

        /// Seeding torrent `id` wants pieces again (more of its files were selected): it downloads,
        /// holding a slot, until it has them.
        mutating func torrentDownloadsAgain(_ id: GID) {
            guard torrents[id]?.seedingSince != nil else { return }
            torrents[id]?.seedingSince = nil
            downloadingTorrents += 1
        }

        /// Changes the running attempt of torrent `id`, if there is one.
        mutating func modifyTorrent(_ id: GID, _ change: (inout TorrentAttempt) -> Void) {
            guard let index = torrents.index(forKey: id) else { return }
            change(&torrents.values[index])
        }

        /// Removes the running attempt of torrent `id` and returns it.
        mutating func endTorrent(_ id: GID) -> TorrentAttempt? {
            guard let attempt = torrents.removeValue(forKey: id) else { return nil }
            if attempt.seedingSince == nil { downloadingTorrents -= 1 }
            return attempt
        }

        // MARK: Connections

        /// Whether connection `id` is one of the running connections of its download.
        func isCurrent(_ id: ConnectionID) -> Bool {
            connection(id) != nil
        }

        /// The running connection `id`, if it still runs.
        func connection(_ id: ConnectionID) -> PlannedConnection? {
            attempts[id.downloadID]?.connection(id)
        }

        /// Whether connection `id` holds its download's slot.
        func isHolder(_ id: ConnectionID) -> Bool {
            attempts[id.downloadID]?.holder.id == id
        }

        /// The split of download `id`'s running attempt, if it is split.
        func split(_ id: GID) -> Split? {
            attempts[id]?.split
        }

        /// Files `split` as the split of download `id`'s running attempt (nothing when the
        /// attempt has ended meanwhile).
        mutating func setSplit(_ id: GID, _ split: Split) {
            modifyAttempt(id) { $0.split = split }
        }
    }

    // MARK: - Ending attempts

    /// Ends the running attempt of `id` (every helper connection of it is stopped), so the
    /// download is no longer active; returns the attempt.
    @discardableResult
    mutating func endAttempt(_ id: GID) -> Attempt? {
        guard let attempt = state.endAttempt(id) else { return nil }
        // The extra connections of a split download end with it.
        for helper in attempt.split?.helpers ?? [] { ask(.cancel(helper.id)) }
        if !state.hostRefusals.isEmpty { state.hostRefusals.ended(attempt.holder.hostKey, by: id) }
        return attempt
    }

    /// Ends the attempt of `id` and stops its slot holder too (or, for a torrent, takes it out
    /// of the session, its resume data saved).
    mutating func stopAttempt(_ id: GID) {
        if let attempt = endAttempt(id) { ask(.cancel(attempt.holder.id)) }
        if state.endTorrent(id) != nil { ask(.stopTorrent(id)) }
    }

    /// The id the next planned connection of download `downloadID` gets.
    mutating func newConnectionID(for downloadID: GID) -> ConnectionID {
        defer { state.nextConnection += 1 }
        return ConnectionID(number: state.nextConnection, downloadID: downloadID)
    }
}

// MARK: - Liveness

extension QueueCore {
    /// Active downloads with bytes missing and no connection running or starting (nor a saved
    /// file being read, as a Metalink is): none, after every input (the core's table tests and
    /// its fuzz target check it).
    func stalledDownloads() -> [GID] {
        state.downloads.ids { $0.state == .active }.filter { id in
            guard let download = state.downloads[id], state.attempts[id] == nil, state.torrents[id] == nil,
                download.totalBytes < 0 || !download.completed.covers(length: download.totalBytes)
            else { return false }
            return true
        }
    }
}
