import HaulNet

// MARK: - State bookkeeping

/// The changes of `State` that keep its tables in step with each other (a slot and its host's
/// count, the admission scan): made under the queue's lock, by every file of the queue.
extension DownloadQueue.State {
    /// Forgets the running attempt of `id` (its connection and its speed sample) and returns
    /// the connection, so the download is no longer active.
    @discardableResult
    mutating func endAttempt(_ id: String) -> DownloadConnection? {
        speedSamples.removeValue(forKey: id)
        // The extra connections of a split download end with it.
        for helper in splits.removeValue(forKey: id)?.helpers ?? [] { helper.cancel() }
        guard let connection = connections.removeValue(forKey: id) else { return nil }
        releaseHost(connection.hostKey)
        return connection
    }

    /// One fewer active download from host `key`.
    private mutating func releaseHost(_ key: String) {
        hostConnections[key, default: 1] -= 1
        if hostConnections[key] == 0 { hostConnections.removeValue(forKey: key) }
    }

    /// Another running connection of split download `id` takes over its slot (and its place in
    /// its host's count).
    mutating func moveSlot(of id: String, to connection: DownloadConnection) {
        guard let holder = connections[id] else { return }
        releaseHost(holder.hostKey)
        hostConnections[connection.hostKey, default: 0] += 1
        connections[id] = connection
    }

    /// `id` may be admitted again: admission must look at it.
    mutating func markAdmittable(_ id: String) {
        if let index = position[id] { scanFrom = min(scanFrom, index) }
    }
}
