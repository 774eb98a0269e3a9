// MARK: - SpeedSample

/// The last byte count a speed was sampled at, for a smoothed speed: a new sample is taken at
/// most every 0.2 s and weighs 0.3 against the speed so far. Used for each download and for
/// each connection of a split one.
///
/// **Threading:** a value; the queue keeps it under its lock.
struct SpeedSample {
    static let interval = 0.2
    static let weight = 0.3
    static let idleAfter = 1.0

    private var time: Double
    private var bytes: Int64
    /// When the attempt's first progress came.
    let startedAt: Double

    init(bytes: Int64, at time: Double) {
        self.time = time
        self.bytes = bytes
        startedAt = time
    }

    /// Folds the rate since the last sample into `speed` when the interval has passed.
    mutating func smooth(_ speed: inout Double, bytes: Int64, at now: Double) {
        guard now - time >= SpeedSample.interval else { return }
        let instant = Double(bytes - self.bytes) / (now - time)
        speed = speed == 0 ? instant : speed * (1 - SpeedSample.weight) + instant * SpeedSample.weight
        time = now
        self.bytes = bytes
    }

    /// A second after the last sample with no byte since, the speed is 0: what a row shows is
    /// what is happening, not what last happened (a transfer held back by a cap, or stalled).
    mutating func settle(_ speed: inout Double, bytes: Int64, at now: Double) {
        guard now - time >= SpeedSample.idleAfter else { return }
        if bytes == self.bytes {
            speed = 0
            time = now
        } else {
            smooth(&speed, bytes: bytes, at: now)
        }
    }
}
