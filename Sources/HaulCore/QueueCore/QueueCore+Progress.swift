import HaulNet

// MARK: - Progress

/// What a connection has written, and each active download's speed.
extension QueueCore {
    mutating func wrote(_ id: ConnectionID, totalBytesWritten: Int64) {
        let downloadID = id.downloadID
        guard let connection = state.connection(id), var download = state.downloads[downloadID] else { return }
        let now = clock.uptime
        download.completed.insert(
            recordSegmentProgress(id, written: totalBytesWritten, now: now)
                ?? connection.resumeOffset..<(connection.resumeOffset + totalBytesWritten))
        download.connections = 1 + (state.splits[downloadID]?.helpers.count ?? 0)
        download.liveSegments = liveSegments(downloadID)
        state.speedSamples[downloadID, default: SpeedSample(bytes: download.bytesDone, at: now)]
            .smooth(&download.speed, bytes: download.bytesDone, at: now)
        scheduleSpeedSettling()
        if download.hint == nil, state.splits[downloadID] == nil, let sample = state.speedSamples[downloadID] {
            // Read directly, not through `merged(over:)`: this runs on every progress message.
            let connections =
                download.options.maxConnectionPerServer ?? configuration.defaults.maxConnectionPerServer
            let ranges = download.response?.header("Accept-Ranges")?.lowercased() == "bytes"
            download.hint = SplitHint.text(
                elapsed: now - sample.startedAt, speed: download.speed,
                remaining: download.totalBytes - download.bytesDone, maxConnections: connections ?? 1,
                takesRanges: download.validator != nil && ranges)
        }
        state.downloads[downloadID] = download
        emit(.changed(download))
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
        for id in state.speedSamples.keys {
            guard var download = state.downloads[id], download.state == .active else { continue }
            let before = download.speed
            state.speedSamples[id]?.settle(&download.speed, bytes: download.bytesDone, at: now)
            guard download.speed != before else { continue }
            state.downloads[id] = download
            emit(.changed(download))
        }
        if !state.speedSamples.isEmpty { scheduleSpeedSettling() }
    }
}
