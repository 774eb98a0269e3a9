import HaulNet

// MARK: - Split plan

extension QueueCore {
    /// The split state of one download: its plan, its mirrors, and every running connection's
    /// segment. Kept in its `Attempt`.
    struct Split {
        var planner: SegmentPlanner
        let total: Int64
        let validator: String?
        /// One request per mirror; the first is the first connection's (after its redirects).
        let mirrors: [Request]
        /// Each mirror's URI as the download lists it.
        let mirrorURIs: [String]
        /// Each mirror's URI as shown (without password), made once rather than per progress
        /// message.
        let mirrorLabels: [String]
        /// Connections allowed on one mirror (`-x`).
        let perMirror: Int
        /// Mirrors given up on, and why.
        var dropped: [Int: String] = [:]
        /// The running connections other than the one holding the download's slot
        /// (`Attempt.holder`).
        var helpers: [PlannedConnection] = []
        /// Each running connection's segment: where it started, where it must end, what it wrote.
        var segments: [ConnectionID: Segment] = [:]
        /// An automatic split's choice of connections, and its measuring (nil when fixed).
        var growth: Growth?

        /// Where an automatic split stands: its decision, how its steps are measured, and the
        /// connections of its last step not measured yet.
        struct Growth {
            var decision: SplitGrowth
            var meter: GrowthMeter
            /// The first connection, measured alone.
            let first: ConnectionID
            /// The last step's connections not measured yet, and those measured (each at
            /// `GrowthMeter.comparedAge` or just past it).
            var awaited: Set<ConnectionID> = []
            var measured: [GrowthMeter.Point] = []
            /// When the last step started (uptime, seconds).
            var stepStartedAt = 0.0
        }

        struct Segment {
            let start: Int64
            var end: Int64
            /// Where the connection itself stops: its request's end, or the last stop sent. A
            /// steal moves `end` at once but stops the victim only once the thief's first byte
            /// came: until then the victim fetches on, so a thief refused or cut before its
            /// first byte gives its range back (`forget`) and no connection is asked for it.
            var limit: Int64
            /// The segment whose range this one took, until its first byte stops that one.
            var stolenFrom: ConnectionID?
            let mirror: Int
            /// Uptime (seconds) when the connection started, and when it last wrote.
            let startedAt: Double
            var lastWriteAt: Double
            /// Bytes written from `start`; after a steal this may run past `end` (the
            /// connection wrote on before it heard of the new end).
            var written: Int64 = 0
            /// Bytes a second, smoothed, and the sample it comes from.
            var speed: Double = 0
            var sample: SpeedSample?
            /// The other side of a tail race (`SegmentPlanner.Race`) this segment is in.
            var rival: ConnectionID?
            /// Whether it started when no other connection of the split ran: refused, it says the
            /// server takes none now.
            var startedAlone = false
            /// Uptime (seconds) of its first body byte.
            var firstByteAt: Double?

            init(start: Int64, end: Int64, mirror: Int, now: Double) {
                self.start = start
                self.end = end
                limit = end
                self.mirror = mirror
                startedAt = now
                lastWriteAt = now
            }

            /// The first byte this connection has yet to write.
            var next: Int64 { min(start + written, end) }
        }

        /// The host of the first connection (`QueueCore.hostKey`).
        var firstHost: String? {
            mirrors.first.map { QueueCore.hostKey($0.url.absoluteString) }
        }

        /// The mirror for a new connection: `preferred` (the mirror of a connection that just
        /// finished) while it is in use and has room, else the usable one with fewest connections.
        func mirror(preferring preferred: Int?) -> Int? {
            if let growth, segments.count >= growth.decision.connections { return nil }
            let load = segments.values.reduce(into: [Int: Int]()) { $0[$1.mirror, default: 0] += 1 }
            let usable = mirrors.indices.filter { dropped[$0] == nil && load[$0, default: 0] < perMirror }
            if let preferred, usable.contains(preferred) { return preferred }
            return usable.min { load[$0, default: 0] < load[$1, default: 0] }
        }

        /// The running segments as the planner sees them, each known by its index in `keys`;
        /// with `excludingRaces`, without the segments already in a tail race.
        func planned(
            now: Double, excludingRaces: Bool = false
        ) -> (keys: [ConnectionID], segments: [SegmentPlanner.Segment]) {
            let keys = segments.keys.sorted { $0.number < $1.number }
            let planned = keys.indices.compactMap { index -> SegmentPlanner.Segment? in
                guard let segment = segments[keys[index]], !excludingRaces || segment.rival == nil else { return nil }
                return SegmentPlanner.Segment(
                    id: index, start: segment.start, next: segment.next, end: segment.end, speed: segment.speed,
                    age: now - segment.startedAt, idle: now - segment.lastWriteAt)
            }
            return (keys, planned)
        }

        /// Forgets the segment of connection `key` (and its side of a race) and the helper, and
        /// returns the segment. One that never wrote gives its range back to the segment that
        /// ends where it starts, whose connection fetches on (`limit`) through what no other
        /// connection holds.
        @discardableResult
        mutating func forget(_ key: ConnectionID) -> Segment? {
            guard let segment = segments.removeValue(forKey: key) else { return nil }
            if let rival = segment.rival { segments[rival]?.rival = nil }
            helpers.removeAll { $0.id == key }
            if segment.firstByteAt == nil,
                let (before, held) = segments.first(where: {
                    $0.value.end == segment.start && $0.value.limit > $0.value.end
                })
            {
                let next = segments.values.lazy.map(\.start).filter { $0 >= held.end }.min() ?? held.limit
                segments[before]?.end = min(held.limit, next)
            }
            return segment
        }

        /// What no connection has written or is fetching, given what is on disk.
        func gaps(completed: ByteRanges) -> [Range<Int64>] {
            var covered = completed
            for segment in segments.values { covered.insert(segment.next..<segment.end) }
            return covered.gaps(upTo: total)
        }
    }
}
