// MARK: - HostRefusals

/// Hosts that keep refusing: a request that failed before any answer (the connection refused,
/// or lost before a status line: an HTTP/2 server's REFUSED_STREAM) puts its host on hold, and
/// the host's downloads back off together rather than each on its own. While a host is held,
/// none of its downloads starts until the hold is over; then one starts alone (the probe). A
/// probe refused again doubles the hold (1 s, 2 s, 4 s… up to `longestHold`); any answer from the
/// host lifts it. A pure value, asked by the queue core; times are the clock's uptime.
struct HostRefusals: Sendable, Equatable {
    /// One held host.
    struct Hold: Sendable, Equatable {
        /// Refusals in a row, the first wave counted once and each probe once.
        var streak: Int
        /// When the next probe may start.
        var until: Double
        /// The download whose attempt is the probe, while it runs.
        var probe: GID?
    }

    /// The longest hold, in seconds.
    static let longestHold = 30.0

    private(set) var holds: [String: Hold] = [:]

    var isEmpty: Bool { holds.isEmpty }

    /// Whether `host` is held (its hold may be over, awaiting its probe).
    func isHeld(_ host: String) -> Bool {
        holds[host] != nil
    }

    /// A request of download `id` to `host` failed before any answer, at `now`. Returns the hold
    /// it begins or lengthens (seconds from now), or nil when the refusal adds nothing: the host
    /// is held already and this was not its probe (the rest of the wave that met the refusal).
    mutating func refused(_ host: String, by id: GID, now: Double) -> (seconds: Double, streak: Int)? {
        guard var hold = holds[host] else {
            holds[host] = Hold(streak: 1, until: now + 1, probe: nil)
            return (1, 1)
        }
        guard hold.probe == id else { return nil }
        hold.streak += 1
        let seconds = min(Double(1 << min(hold.streak - 1, 16)), HostRefusals.longestHold)
        hold.until = now + seconds
        hold.probe = nil
        holds[host] = hold
        return (seconds, hold.streak)
    }

    /// Whether a download from `host` may start at `now`: the host is not held, or its hold is
    /// over and no probe runs.
    func mayStart(_ host: String, now: Double) -> Bool {
        guard let hold = holds[host] else { return true }
        return hold.probe == nil && now >= hold.until
    }

    /// The hold on `host` is over, as its timer says (whatever the clock read when it was set).
    mutating func holdOver(_ host: String) {
        holds[host]?.until = -.infinity
    }

    /// Download `id` starts an attempt to `host`: a held host's probe.
    mutating func started(_ host: String, by id: GID) {
        holds[host]?.probe = id
    }

    /// Download `id`'s attempt to `host` ended some other way (paused, removed, an error that
    /// is no refusal): another probe may start.
    mutating func ended(_ host: String, by id: GID) {
        if holds[host]?.probe == id { holds[host]?.probe = nil }
    }

    /// `host` answered: its hold is lifted.
    ///
    /// - Returns: Whether it was held.
    @discardableResult
    mutating func answered(_ host: String) -> Bool {
        holds.removeValue(forKey: host) != nil
    }
}
