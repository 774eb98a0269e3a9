import Synchronization

// MARK: - ResultLimit

/// `max-download-result`, as aria2 names it: the queue keeps the results of at most this many
/// ended downloads (complete, failed, cancelled); the oldest leave the queue (their files stay,
/// and the store's history keeps them).
///
/// **Threading:** `note` runs on the queue's callback queue, outside the queue's lock, so it
/// may take downloads off the queue.
final class ResultLimit: Sendable {
    fileprivate struct Results {
        /// Ids in the order they ended, from `head` on; an id no longer in `ended` is skipped.
        var order: [GID] = []
        var head = 0
        var ended: Set<GID> = []
    }

    let limit: Int
    private let results = Mutex(Results())

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// Follows `event`; returns the ids to take off the queue, oldest results first.
    func note(_ event: DownloadEvent) -> [GID] {
        results.withLock { results in
            switch event {
            case .added(let downloads):
                for download in downloads where download.state.isFinal { results.record(download.id) }
            case .stateChanged(let download, _):
                if download.state.isFinal {
                    results.record(download.id)
                } else {
                    results.ended.remove(download.id)
                }
            case .removed(let id):
                results.ended.remove(id)
            case .updated, .progress, .activity, .moved:
                break
            }
            return results.trim(to: limit)
        }
    }
}

extension ResultLimit.Results {
    mutating func record(_ id: GID) {
        guard ended.insert(id).inserted else { return }
        order.append(id)
    }

    /// The oldest ended ids beyond `limit`, forgotten.
    mutating func trim(to limit: Int) -> [GID] {
        var dropped: [GID] = []
        while ended.count > limit, head < order.count {
            let id = order[head]
            head += 1
            if ended.remove(id) != nil { dropped.append(id) }
        }
        if head > 4096, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return dropped
    }
}
