import HaulNet

// MARK: - Attempt

extension QueueCore {
    /// One running attempt of an active download, and everything that lasts exactly as long as
    /// it: ending the attempt is removing this record (`State.endAttempt`).
    struct Attempt {
        /// The connection that holds the download's slot (`QueueCore`'s *slot holder*). Replaced
        /// only by `State.moveSlot`, so that its origin's count follows it.
        var holder: PlannedConnection
        /// Whether it went out as a further stream of an HTTP/2 connection, beyond -j.
        let isStream: Bool
        /// Its plan over several connections, when it is split: the helpers and every
        /// connection's segment.
        var split: Split?
        /// Its last progress sample, for its speed.
        var speedSample: SpeedSample?
        /// Whether its file got its final name: only an attempt that saved may complete.
        var saved = false
        /// A failure found after the body arrived (digest, rename), reported at the attempt's end.
        var lateFailure: DownloadFailure?
        /// Connections whose file is being checked and named, and whether their load has ended.
        var finishing: [ConnectionID: Bool] = [:]

        init(holder: PlannedConnection, isStream: Bool) {
            self.holder = holder
            self.isStream = isStream
        }

        /// The running connection `id` of this attempt: its holder or one of its split's helpers.
        func connection(_ id: ConnectionID) -> PlannedConnection? {
            holder.id == id ? holder : split?.helpers.first { $0.id == id }
        }

        /// Its running connections: the slot holder, then the helpers.
        var running: [PlannedConnection] {
            [holder] + (split?.helpers ?? [])
        }

        /// Measures the attempt's speed into `speed` now that `bytes` are done at `now`.
        mutating func measure(_ speed: inout Double, bytes: Int64, at now: Double) {
            var sample = speedSample ?? SpeedSample(bytes: bytes, at: now)
            sample.measure(&speed, bytes: bytes, at: now)
            speedSample = sample
        }
    }
}
