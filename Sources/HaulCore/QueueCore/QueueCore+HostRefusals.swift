import HaulNet

// MARK: - Host refusals

/// A host that refuses before it answers backs off as a whole (`HostRefusals`): the first
/// refusal holds its other unanswered attempts back, uncounted, and each probe it refuses again
/// counts against every download waiting for it, so a server that refuses everything ends its
/// downloads after `--max-tries` probes rather than each download's own tries times the streams.
extension QueueCore {
    /// The attempt of `id` to `host` was refused (`ConnectionError.isRefusal`) for `failure`, saying `message`:
    /// the host is held, or held longer; its other downloads wait with it. A download alone with
    /// its host backs off by itself (`RetryPolicy`), as before any hold.
    mutating func hostRefused(_ host: String, by id: GID, _ failure: RetryPolicy.Failure, _ message: String) {
        guard state.hostRefusals.isHeld(host) || state.origins[host].active > 1,
            let (seconds, streak) = state.hostRefusals.refused(host, by: id, now: clock.uptime)
        else { return }
        ask(.schedule(.hostHoldOver(host), after: seconds))
        if streak == 1 {
            holdUnanswered(host, except: id)
        } else {
            chargeWaiting(host, except: id, failure, "\(host) refused \(streak) requests in a row: \(message)")
        }
    }

    /// Stops the attempts to `host` that have no answer yet (but that of `id`): they would meet
    /// the same refusal. They are queued again with the attempt not counted.
    private mutating func holdUnanswered(_ host: String, except id: GID) {
        // A small body the engine takes by itself tells its answer at its end: one stopped meanwhile
        // is fetched again whole, which costs less than libcurl's own five tries of a refusal.
        let unanswered = state.attempts.filter {
            $0.key != id && $0.value.holder.hostKey == host && !$0.value.holder.answered
        }
        for gid in unanswered.sorted(by: { $0.value.holder.id.number < $1.value.holder.id.number }).map(\.key) {
            requeue(gid, refundAttempt: true)
        }
    }

    /// A probe of `host` was refused again: every other queued download from it spends an
    /// attempt with it, and fails for good when that was its last.
    private mutating func chargeWaiting(
        _ host: String, except id: GID, _ failure: RetryPolicy.Failure, _ message: String
    ) {
        for index in 0..<state.downloads.count {
            var download = state.downloads[position: index]
            guard download.id != id, download.state == .queued, QueueCore.nextHostKey(of: download) == host
            else { continue }
            download.attempts += 1
            let maxTries = options(of: download).maxTries
            if maxTries > 0, download.attempts >= maxTries {
                download.state = .failed
                download.nextAttemptAt = nil
                download.record(failure, message, reason: nil)
                state.runs[download.id]?.waiting = false
            }
            file(download)
        }
    }

    /// The hold on `host` is over: its next download may start, as its probe.
    mutating func hostHoldOver(_ host: String) {
        state.hostRefusals.holdOver(host)
        state.scanFrom = 0
        admit()
    }
}
