// MARK: - TorrentAttempt

extension QueueCore {
    /// The running attempt of a torrent: libtorrent's session runs it, haul's queue decides when
    /// it starts and stops. It holds a slot while it downloads; seeding, it holds none.
    struct TorrentAttempt {
        /// Uptime (seconds) when it started.
        let startedAt: Double
        /// Uptime when every wanted piece was had, from which it seeds; nil while downloading.
        var seedingSince: Double?
        /// Whether its metadata is known (a magnet link's comes from peers) and its files' names
        /// passed the gate.
        var named = false
    }
}
