import HaulNet

// MARK: - DownloadRun

extension QueueCore {
    /// What this run of the queue knows of one download beyond its running attempt: what it
    /// shows, and what its earlier attempts taught. Nothing here is saved; it goes when the
    /// download is removed.
    struct DownloadRun {
        /// What the download's attempt shows (speed, connections, response), beside its record.
        var activity = DownloadActivity()
        /// Whether it waits for its retry timer.
        var waiting = false
        /// Whether its server disagreed between connections: one connection from now on.
        var noSplit = false
        /// The connections its automatic split settled on: resumed after a pause, it starts there.
        var settledSplit: Int?
        /// Whether this run began its partial file under a response of known length but no
        /// validator (no ETag, no Last-Modified): a later attempt of this run continues it with a
        /// Range, and the answer must be of the same length (`ResumeRule`), as wget and aria2
        /// continue within a run. A later run starts such a file over: nothing says the
        /// resource did not change in between.
        var resumableHere = false
        /// Whether a check of its split's connections for laggards is scheduled.
        var watchedForLaggards = false
    }
}
