import HaulNet
import HaulText

// MARK: - Progress

/// What a connection has written, and each active download's speed.
extension QueueCore {
    mutating func wrote(_ id: ConnectionID, totalBytesWritten: Int64) {
        let downloadID = id.downloadID
        guard let connection = state.connection(id) else { return }
        let now = clock.uptime
        // The engine's count of bytes it wrote: never negative, and a position from a server
        // (`FileSize`) plus it stays in range; held there all the same.
        let count = max(totalBytesWritten, 0)
        let written =
            recordSegmentProgress(id, written: count, now: now)
            ?? QueueCore.written(count, from: connection.bodyOffset ?? connection.resumeOffset)
        // In place, and only what progress needs read from it: this runs for every write of
        // every download.
        var seen: (completed: ByteRanges, total: Int64, connections: Int?, validated: Bool)?
        state.downloads.modify(downloadID) { record in
            record.completed.insert(written)
            seen = (record.completed, record.totalBytes, record.options.maxConnectionPerServer, record.validator != nil)
        }
        guard let seen else { return }
        let bytesDone = seen.completed.count
        var activity = state.runs[downloadID]?.activity ?? DownloadActivity()
        state.modifyAttempt(downloadID) { $0.measure(&activity.speed, bytes: bytesDone, at: now) }
        state.runs[downloadID, default: DownloadRun()].activity = activity
        scheduleSpeedSettling()
        emit(
            .progress(
                id: downloadID,
                DownloadProgress(completed: seen.completed, totalBytes: seen.total, speed: activity.speed)))
        // One connection is what a download shows unless it is split: only a split says so.
        let attempt = state.attempts[downloadID]
        if let split = attempt?.split {
            show(downloadID, .connections(1 + split.helpers.count, segments: liveSegments(downloadID)))
        }
        if activity.hint == nil, attempt?.split == nil, let sample = attempt?.speedSample {
            // Read directly, not through `merged(over:)`: this runs on every progress message.
            let connections = seen.connections ?? configuration.defaults.maxConnectionPerServer
            let hint = SplitHint.text(
                elapsed: now - sample.startedAt, speed: activity.speed,
                remaining: seen.total - bytesDone, maxConnections: connections ?? 1,
                takesRanges: seen.validated && activity.response?.offersRanges == true)
            if let hint { show(downloadID, .hint(hint)) }
        }
    }

    /// The bytes a connection that writes from `offset` has written once it wrote `count`.
    static func written(_ count: Int64, from offset: Int64) -> Range<Int64> {
        offset..<offset.adding(saturating: count)
    }

    /// How far `download` is, and how fast (its activity's speed).
    func progress(of download: Download) -> DownloadProgress {
        DownloadProgress(
            completed: download.completed, totalBytes: download.totalBytes,
            speed: state.runs[download.id]?.activity.speed ?? 0)
    }

    /// Schedules `settleSpeeds` in a second, unless it is scheduled already.
    private mutating func scheduleSpeedSettling() {
        guard !state.settlingSpeeds else { return }
        state.settlingSpeeds = true
        ask(.schedule(.settleSpeeds, after: SpeedSample.idleAfter))
    }

    /// Once a second while downloads are active: one that received nothing for a second shows
    /// a speed of 0 (no progress message would ever say so).
    mutating func settleSpeeds() {
        state.settlingSpeeds = false
        let now = clock.uptime
        let sampled = state.attempts.compactMap { $0.value.speedSample == nil ? nil : $0.key }
        for id in sampled {
            guard let download = state.downloads[id], download.state == .active,
                var speed = state.runs[id]?.activity.speed
            else { continue }
            let before = speed
            state.modifyAttempt(id) { $0.speedSample?.settle(&speed, bytes: download.bytesDone, at: now) }
            guard speed != before else { continue }
            state.runs[id]?.activity.speed = speed
            emit(.progress(id: id, progress(of: download)))
        }
        if !sampled.isEmpty { scheduleSpeedSettling() }
    }
}
