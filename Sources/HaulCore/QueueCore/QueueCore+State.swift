import HaulNet

// MARK: - State

extension QueueCore {
    /// Every download and what the core tracks about its running attempt.
    struct State {
        /// Every download, in queue order.
        var downloads = DownloadTable()
        /// No download before this index of the queue order can be admitted now; it moves back
        /// when one becomes admittable again, so admission does not rescan a long queue.
        var scanFrom = 0
        /// Whether a download with a priority was ever added: until then, downloads are added at
        /// the end without a look at the others.
        var hasPriorities = false
        /// The slot holder of every active download (so its count is the active count).
        var connections: [GID: PlannedConnection] = [:]
        /// Active downloads per host (`QueueCore.hostKey`).
        var hostConnections: [String: Int] = [:]
        /// Hosts whose answers came over HTTP/2: their queued downloads may go out as further
        /// streams of the connection, beyond -j, up to `QueueConfiguration.streamWindow` in flight.
        var multiplexedHosts: Set<String> = []
        /// The downloads running as such streams, beyond -j.
        var streams: Set<GID> = []
        /// When the first download from each host was started (uptime): how long the host took
        /// to agree on HTTP/2 says whether the link has latency worth streams.
        var firstAsked: [String: Double] = [:]
        /// Hosts that agreed on HTTP/2 within `QueueConfiguration.nearAnswer`: there a round trip
        /// costs less than a file's own work, and streams beyond -j would only add work.
        var nearHosts: Set<String> = []
        /// The number the next planned connection gets.
        var nextConnection = 1
        /// Downloads waiting for their retry timer.
        var waiting: Set<GID> = []
        /// A failure found after the body arrived (digest, rename), reported at the ending.
        var lateFailure: [GID: DownloadFailure] = [:]
        /// Downloads whose file got its final name in this attempt: only these may complete.
        var saved: Set<GID> = []
        /// Connections whose file is being checked and named, and whether their load has
        /// already ended.
        var finishing: [ConnectionID: Bool] = [:]
        /// Split downloads: their plan, their extra connections, and every connection's segment.
        var splits: [GID: Split] = [:]
        /// Split downloads with a laggard check scheduled.
        var watchedSplits: Set<GID> = []
        /// Downloads whose server disagreed between connections: one connection from now on.
        var noSplit: Set<GID> = []
        /// The connections each automatically split download settled on this run: resumed after a
        /// pause, it starts there.
        var settledSplits: [GID: Int] = [:]
        /// The connections each host took before it refused an automatic split more: another
        /// download's split from it starts there.
        var hostSplitCounts: [String: Int] = [:]
        /// Downloads whose partial file this run began under a response of known length but no
        /// validator (no ETag, no Last-Modified): a later attempt of this run continues it with a
        /// Range, and the answer must be of the same length (`ResumeRule`), as wget and aria2
        /// continue within a run. A later run starts such a file over: nothing says the
        /// resource did not change in between.
        var resumableHere: Set<GID> = []
        /// What each download's attempt shows (speed, connections, response), beside its record.
        var activity: [GID: DownloadActivity] = [:]
        /// The last progress sample of each active attempt, for its speed.
        var speedSamples: [GID: SpeedSample] = [:]
        /// Whether the once-a-second check of idle speeds (`settleSpeeds`) is scheduled.
        var settlingSpeeds = false
        /// Hosts that refused before answering, and when each may be tried again.
        var hostRefusals = HostRefusals()

        /// Makes room for `count` more downloads.
        mutating func reserveCapacity(adding count: Int) {
            downloads.reserveCapacity(downloads.count + count)
        }

        /// `id` may be admitted again: admission must look at it.
        mutating func markAdmittable(_ id: GID) {
            if let index = downloads.index(of: id) { scanFrom = min(scanFrom, index) }
        }

        /// Whether connection `id` is one of the running connections of its download.
        func isCurrent(_ id: ConnectionID) -> Bool {
            isHolder(id) || splits[id.downloadID]?.helpers.contains { $0.id == id } == true
        }

        /// The running connection `id`, if it still runs.
        func connection(_ id: ConnectionID) -> PlannedConnection? {
            if let holder = connections[id.downloadID], holder.id == id { return holder }
            return splits[id.downloadID]?.helpers.first { $0.id == id }
        }

        /// Whether connection `id` holds its download's slot.
        func isHolder(_ id: ConnectionID) -> Bool {
            connections[id.downloadID]?.id == id
        }

        /// The running connections of download `id`: the slot holder, then the helpers.
        func running(_ id: GID) -> [PlannedConnection] {
            [connections[id]].compactMap { $0 } + (splits[id]?.helpers ?? [])
        }
    }

    // MARK: - Keeping the tables in step

    /// Ends the running attempt of `id` (every connection of it is stopped, its speed sample
    /// forgotten), so the download is no longer active; returns its slot holder.
    @discardableResult
    mutating func endAttempt(_ id: GID) -> PlannedConnection? {
        state.speedSamples.removeValue(forKey: id)
        // The extra connections of a split download end with it.
        for helper in state.splits.removeValue(forKey: id)?.helpers ?? [] { ask(.cancel(helper.id)) }
        guard let holder = state.connections.removeValue(forKey: id) else { return nil }
        releaseHost(holder.hostKey)
        if !state.hostRefusals.isEmpty { state.hostRefusals.ended(holder.hostKey, by: id) }
        if !state.streams.isEmpty { state.streams.remove(id) }
        return holder
    }

    /// Ends the attempt of `id` and stops its slot holder too.
    mutating func stopAttempt(_ id: GID) {
        if let holder = endAttempt(id) { ask(.cancel(holder.id)) }
    }

    /// One fewer active download from host `key`.
    private mutating func releaseHost(_ key: String) {
        // One lookup: the key is a string, hashed whole each time, and every attempt ends here.
        guard let index = state.hostConnections.index(forKey: key) else { return }
        if state.hostConnections.values[index] > 1 {
            state.hostConnections.values[index] -= 1
        } else {
            state.hostConnections.remove(at: index)
        }
    }

    /// Another running connection of split download `id` takes over its slot (and its place in
    /// its host's count).
    mutating func moveSlot(of id: GID, to connection: PlannedConnection) {
        guard let holder = state.connections[id] else { return }
        releaseHost(holder.hostKey)
        state.hostConnections[connection.hostKey, default: 0] += 1
        state.connections[id] = connection
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
            guard let download = state.downloads[id], state.connections[id] == nil, !state.saved.contains(id),
                download.totalBytes < 0 || !download.completed.covers(length: download.totalBytes)
            else { return false }
            if let split = state.splits[id] {
                return split.segments.isEmpty && !download.completed.covers(length: split.total)
            }
            return true
        }
    }
}
