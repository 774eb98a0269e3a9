import Foundation
import HaulCore
import HaulNet

// MARK: - DaemonLog

/// What `haul daemon` writes to stderr: one plain line per change a person would look for (a
/// download added, started, paused, saved, failed, removed), with a UTC time, no colour, no
/// password (URIs are redacted) and no control character a server could have sent.
enum DaemonLog {
    /// The line for `event`, or nil when it is not one the log shows (progress, activity).
    static func line(for event: DownloadEvent, at date: Date = Date()) -> String? {
        let text: String
        switch event {
        case .added(let downloads):
            guard let first = downloads.first else { return nil }
            text =
                downloads.count == 1
                ? "[\(first.id)] added \(first.displayURI)" : "\(downloads.count) downloads added"
        case .stateChanged(let download, let from):
            guard download.state != from, let said = said(download) else { return nil }
            text = "[\(download.id)] \(said)"
        case .removed(let id): text = "[\(id)] removed from the queue"
        case .updated, .progress, .activity, .moved: return nil
        }
        return stamp(date) + " " + TextSanitizer.visible(text)
    }

    /// What became of `download`, by its new state.
    private static func said(_ download: Download) -> String? {
        switch download.state {
        case .active: "started \(download.displayURI)"
        case .paused: "paused"
        case .cancelled: "stopped"
        case .complete:
            "saved \(download.destination ?? download.shownName) (\(ByteCount.format(max(download.totalBytes, 0))))"
        case .failed:
            "failed (error \(download.errorCode?.rawValue ?? ErrorCode.unknown.rawValue)): "
                + (download.lastError ?? "unknown error")
        case .queued: download.nextAttemptAt == nil ? nil : "will retry: \(download.lastError ?? "failed")"
        }
    }

    /// A line's time, as ISO 8601 in UTC to the second.
    static func stamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
