import Foundation
import HaulNet

// MARK: - Retry

/// A failed attempt is tried again after `RetryPolicy`'s wait, or fails for good.
extension QueueCore {
    /// A connection failed: a split's helper loses its segment (or its mirror), and so does the
    /// slot holder while other connections of its split run (the slot goes to one of them); the
    /// failure of a slot holder alone is the attempt's.
    mutating func connectionFailed(_ id: ConnectionID, _ error: ConnectionError) {
        let downloadID = id.downloadID
        if !state.isHolder(id), state.isCurrent(id) { return helperFailed(id, error) }
        if state.isHolder(id), let segments = state.split(downloadID)?.segments, segments[id] != nil,
            segments.count > 1, error.kind != .fileWrite
        {
            return helperFailed(id, error)
        }
        guard let connection = state.attempts[downloadID]?.holder, connection.id == id else { return }
        let failure: RetryPolicy.Failure =
            error.kind == .fileWrite ? .local(ErrorCode(fileError: error.systemError)) : .transport(error.kind)
        if error.isRefusal {
            hostRefused(connection.hostKey, by: downloadID, failure, error.descriptionWithoutURL)
        }
        endAttempt(downloadID)
        failed(downloadID, failure, error.descriptionWithoutURL)
    }

    /// Records a failed attempt: queued again after the policy's wait, or failed for good; then
    /// admits downloads into the freed slot.
    mutating func failed(_ id: GID, _ failure: RetryPolicy.Failure, _ message: String) {
        guard var download = state.downloads[id] else { return }
        let options = options(of: download)
        let policy = RetryPolicy(
            maxTries: options.maxTries, fixedWait: options.retryWait.map(Double.init))
        download.record(failure, message, reason: state.runs[id]?.activity.response?.reasonPhrase)
        switch policy.decide(
            attempt: download.attempts, failure: failure, now: clock.now, jitter: clock.retryJitter())
        {
        case .giveUp:
            download.state = .failed
            download.nextAttemptAt = nil
        case .retry(let seconds):
            download.state = .queued
            download.nextAttemptAt = clock.now.addingTimeInterval(seconds)
            state.runs[id, default: DownloadRun()].waiting = true
            ask(.schedule(.retry(id), after: seconds))
        }
        file(download)
        admit()
    }

    /// A failed download's wait is over: it may be admitted again.
    mutating func retryDue(_ id: GID) {
        guard state.runs[id]?.waiting == true else { return }
        state.runs[id]?.waiting = false
        state.markAdmittable(id)
        admit()
    }
}
