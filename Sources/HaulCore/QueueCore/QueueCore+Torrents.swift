import HaulTorrent

// MARK: - Torrents

/// A torrent is a download like the others behind the same queue: admitted in order while a slot
/// is free, paused, cancelled and removed alike. libtorrent's session runs it; what it reports
/// comes back as inputs. A torrent that has every wanted piece seeds, holding no slot, until its
/// share ratio or seeding time is reached (`SeedingPolicy`), then completes.
extension QueueCore {
    /// Starts torrent `download`'s attempt: the shell adds it to the session and answers with
    /// `QueueInput.torrentStarted`.
    mutating func startTorrent(_ download: inout Download, _ link: TorrentLink) {
        download.state = .active
        download.attempts += 1
        state.beginTorrent(download.id, at: clock.uptime)
        file(download)
        ask(
            .startTorrent(
                TorrentPlan(
                    download: download, link: link, directory: download.directory ?? configuration.directory,
                    options: options(of: download))))
    }

    /// What adding torrent `id` to the session gave: its files' names once its metadata is known
    /// (nil for a magnet link until then), or why it could not be added.
    mutating func torrentStarted(_ id: GID, _ outcome: Result<TorrentNaming?, DownloadFailure>) {
        switch outcome {
        case .failure(let failure):
            torrentFailed(id, failure)
        case .success(let naming?):
            torrentNamed(id, naming)
        case .success(nil):
            break
        }
    }

    /// Torrent `id`'s files are known and their names passed the gate: the download is saved at
    /// `naming.destination`.
    mutating func torrentNamed(_ id: GID, _ naming: TorrentNaming) {
        guard state.torrents[id] != nil, var download = state.downloads[id], download.state == .active else { return }
        state.modifyTorrent(id) { $0.named = true }
        download.destination = naming.destination
        download.totalBytes = naming.wanted
        file(download)
    }

    /// Torrent `id` stopped on an error (a disk that is full, a metainfo refused, names the gate
    /// refused): it fails, and is not tried again by itself.
    mutating func torrentFailed(_ id: GID, _ failure: DownloadFailure) {
        guard state.endTorrent(id) != nil else { return }
        ask(.stopTorrent(id))
        failed(id, .local(failure.code), failure.message)
    }

    /// What libtorrent says of torrent `id` now: its progress, speeds and swarm; whether it has
    /// every wanted piece (it seeds from then on), and whether its seeding is over.
    mutating func torrentReported(_ id: GID, _ status: TorrentStatus) {
        guard let attempt = state.torrents[id], let before = state.downloads[id], before.state == .active else {
            return
        }
        let total = status.hasMetadata ? status.totalWanted : -1
        let done = max(status.totalWantedDone, 0)
        state.downloads.modify(id) { record in
            record.totalBytes = total
            record.completed = done > 0 ? ByteRanges([0..<done]) : ByteRanges()
        }
        let whole = status.hasMetadata && status.isFinished && !status.isChecking && attempt.named
        // Seeding, it downloads nothing: libtorrent's average would take seconds to say so.
        state.runs[id, default: DownloadRun()].activity.speed = whole ? 0 : Double(status.downloadRate)
        if let download = state.downloads[id] { emit(.progress(id: id, progress(of: download))) }
        var activity = TorrentActivity(
            infoHash: status.infoHash, uploadSpeed: Double(status.uploadRate), uploaded: status.uploaded,
            peers: status.peers, seeds: status.seeds, seeding: whole, piecesDone: status.piecesDone,
            pieceCount: status.pieceCount, pieceLength: status.pieceLength)
        activity.checking = status.isChecking
        activity.hereAtStart = max(0, done - status.downloadedHere)
        activity.failedBytes = max(0, status.failedBytes)
        show(id, .torrent(activity))
        guard whole else {
            state.torrentDownloadsAgain(id)
            return
        }
        let now = clock.uptime
        let firstWhole = attempt.seedingSince == nil
        if firstWhole { state.torrentSeeds(id, since: now) }
        let seconds = now - (attempt.seedingSince ?? now)
        let policy = SeedingPolicy(options(of: before))
        if policy.ends(uploaded: status.uploaded, of: total, afterSeconds: seconds) {
            finishSeeding(id)
        } else if firstWhole {
            show(id, .seedingStarted)
            // Its slot is free for the next download.
            admit()
        }
    }

    /// Torrent `id` has seeded enough (or was not to seed): it leaves the session and is complete.
    private mutating func finishSeeding(_ id: GID) {
        guard state.endTorrent(id) != nil, let download = state.downloads[id] else { return }
        state.runs[id]?.activity.speed = 0
        ask(.stopTorrent(id))
        markComplete(download)
    }
}

// MARK: - SeedingPolicy

/// When a torrent that has every wanted piece stops seeding, as aria2 decides: `seed-time`
/// minutes after (0: at once), or once it uploaded `seed-ratio` times its size (1.0 unless set;
/// 0.0 seeds whatever the ratio), whichever comes first.
struct SeedingPolicy: Equatable {
    let ratio: Double
    let minutes: Double?

    init(ratio: Double = 1, minutes: Double? = nil) {
        self.ratio = ratio
        self.minutes = minutes
    }

    init(_ options: EffectiveOptions) {
        self.init(ratio: options.seedRatio ?? 1, minutes: options.seedTime)
    }

    /// Whether seeding is over after `seconds` of it, having uploaded `uploaded` bytes of a
    /// torrent of `size` wanted bytes.
    func ends(uploaded: Int64, of size: Int64, afterSeconds seconds: Double) -> Bool {
        if let minutes, seconds >= minutes * 60 { return true }
        return ratio > 0 && size > 0 && Double(uploaded) / Double(size) >= ratio
    }
}
