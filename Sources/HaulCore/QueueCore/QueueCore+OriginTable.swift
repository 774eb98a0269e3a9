import HaulNet

// MARK: - OriginTable

extension QueueCore {
    /// What the core knows of each origin asked this run (`Origin`'s text, `QueueCore.hostKey`):
    /// its active downloads, and whether its queued ones may go out as further HTTP/2 streams.
    /// One record per origin; the few that multiplex are also listed, so that admission, which
    /// asks for stream room on every pass, does not look at every origin.
    struct OriginTable {
        /// One origin.
        struct Record {
            /// Whether queued downloads of the origin may go out as streams beyond -j.
            enum Streams {
                /// Not answered over HTTP/2 yet.
                case unknown
                /// Answered over HTTP/2 within `QueueConfiguration.nearAnswer`: a round trip there
                /// costs less than a file's own work, and streams beyond -j would only add work.
                case near
                /// Answered over HTTP/2 from afar: streams up to `QueueConfiguration.streamWindow`.
                case multiplexed
            }

            /// Its active downloads (each counted once, by its slot holder's origin).
            var active = 0
            /// When its first download started (uptime): how long the origin took to agree on
            /// HTTP/2 says whether the link has latency worth streams.
            var firstAsked: Double?
            var streams = Streams.unknown
            /// The connections it took before it refused an automatic split more: another
            /// download's split from it starts there.
            var splitConnections: Int?
        }

        private var records: [String: Record] = [:]
        /// The origins whose `streams` is `.multiplexed`.
        private var multiplexed: [String] = []

        /// The record of origin `key` (an empty one for an origin never asked).
        subscript(key: String) -> Record {
            records[key] ?? Record()
        }

        /// A download from origin `key` became active: asked at `uptime`, or nil when its slot
        /// moved there from another connection (the origin was not asked first by it).
        mutating func started(_ key: String, asked uptime: Double?) {
            records[key, default: Record()].active += 1
            if let uptime, records[key]?.firstAsked == nil { records[key]?.firstAsked = uptime }
        }

        /// A download from origin `key` is no longer active (or counts elsewhere now).
        mutating func ended(_ key: String) {
            // One lookup: the key is a string, hashed whole each time, and every attempt ends here.
            guard let index = records.index(forKey: key) else { return }
            records.values[index].active = max(records.values[index].active - 1, 0)
        }

        /// Origin `key` answered over HTTP/2 at `uptime`; `nearAnswer` is the answer time within
        /// which it counts as near. Returns whether its queued downloads may now go out as
        /// streams (nothing changes for an origin judged before). One reached by a redirect was
        /// never asked first: it cannot be judged, and streams cost little where they do not help.
        mutating func multiplexes(_ key: String, at uptime: Double, nearAnswer: Double) -> Bool {
            var record = self[key]
            guard record.streams == .unknown else { return false }
            if let asked = record.firstAsked, uptime - asked < nearAnswer {
                record.streams = .near
            } else {
                record.streams = .multiplexed
                multiplexed.append(key)
            }
            records[key] = record
            return record.streams == .multiplexed
        }

        /// Origin `key` refused an automatic split beyond `connections`.
        mutating func splitRefused(_ key: String, beyond connections: Int) {
            records[key, default: Record()].splitConnections = connections
        }

        /// Whether origin `key` multiplexes and has fewer than `window` downloads in flight: one
        /// more may go out as a stream of its connection.
        func hasStreamRoom(_ key: String, window: Int) -> Bool {
            guard let record = records[key] else { return false }
            return record.streams == .multiplexed && record.active < window
        }

        /// Whether any origin has stream room (`hasStreamRoom`).
        func anyStreamRoom(window: Int) -> Bool {
            multiplexed.contains { hasStreamRoom($0, window: window) }
        }
    }
}
