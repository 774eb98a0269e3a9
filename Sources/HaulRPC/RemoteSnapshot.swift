import HaulCore

// MARK: - RemoteSnapshot

/// A daemon's downloads as one poll saw them (active, then waiting, then stopped, as aria2
/// lists them; a torrent's swarm and upload beside), and the `DownloadEvent`s that take a view from one snapshot to the next. Pure.
package struct RemoteSnapshot: Sendable, Equatable {
    package var downloads: [Download] = []
    /// Bytes a second, by gid.
    package var speeds: [GID: Double] = [:]
    /// The torrents' upload, swarm and seeding, by gid.
    package var torrents: [GID: TorrentActivity] = [:]

    package init(downloads: [Download] = [], speeds: [GID: Double] = [:], torrents: [GID: TorrentActivity] = [:]) {
        self.downloads = downloads
        self.speeds = speeds
        self.torrents = torrents
    }

    /// The snapshot `records` (aria2 status records) describe; records without a gid are left out,
    /// and a gid listed again is the first record's (a daemon's list is another program's).
    package init(records: [JSONValue]) {
        for record in records {
            guard let (download, speed) = Aria2Status.download(from: record), speeds[download.id] == nil else {
                continue
            }
            downloads.append(download)
            speeds[download.id] = speed
            torrents[download.id] = Aria2Status.torrentActivity(from: record)
        }
    }

    /// The events that turn a view of `self` into a view of `next`: removals, then additions
    /// (one event), then moves into `next`'s order, then each download's change of state, of
    /// name, or of progress.
    package func events(to next: RemoteSnapshot) -> [DownloadEvent] {
        var events: [DownloadEvent] = []
        let old = Dictionary(downloads.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Set(next.downloads.map(\.id))
        var order = downloads.map(\.id).filter { new.contains($0) }
        for download in downloads where !new.contains(download.id) { events.append(.removed(id: download.id)) }
        let added = next.downloads.filter { old[$0.id] == nil }
        if !added.isEmpty {
            events.append(.added(added))
            order += added.map(\.id)
            for download in added {
                if let torrent = next.torrents[download.id] {
                    events.append(.activity(id: download.id, .torrent(torrent)))
                }
            }
        }
        for (index, download) in next.downloads.enumerated() where order.indices.contains(index) {
            guard order[index] != download.id, let from = order.firstIndex(of: download.id) else { continue }
            order.remove(at: from)
            order.insert(download.id, at: index)
            events.append(.moved(id: download.id, to: index))
        }
        for download in next.downloads {
            guard let before = old[download.id] else { continue }
            let speed = next.speeds[download.id] ?? 0
            if before.state != download.state {
                events.append(.stateChanged(download, from: before.state))
            } else if before.destination != download.destination || before.lastError != download.lastError {
                events.append(.updated(download))
            }
            if before.completed != download.completed || before.totalBytes != download.totalBytes
                || (speeds[download.id] ?? 0) != speed
            {
                events.append(
                    .progress(
                        id: download.id,
                        DownloadProgress(completed: download.completed, totalBytes: download.totalBytes, speed: speed)))
            }
            // After a change of state, which starts a view's activity afresh.
            if let torrent = next.torrents[download.id],
                torrent != torrents[download.id] || before.state != download.state
            {
                events.append(.activity(id: download.id, .torrent(torrent)))
            }
        }
        return events
    }
}
