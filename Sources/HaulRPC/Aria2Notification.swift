import HaulCore

// MARK: - Aria2Notification

/// What a WebSocket client hears when a download starts, pauses, stops, completes or fails, or
/// a torrent has every wanted piece and seeds: aria2's notification, naming the download by its
/// gid.
package struct Aria2Notification: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case start = "onDownloadStart"
        case pause = "onDownloadPause"
        case stop = "onDownloadStop"
        case complete = "onDownloadComplete"
        case error = "onDownloadError"
        case btComplete = "onBtDownloadComplete"

        package var method: String { "aria2." + rawValue }
    }

    package let kind: Kind
    package let gid: GID

    package init(_ kind: Kind, gid: GID) {
        self.kind = kind
        self.gid = gid
    }

    /// The notification `event` makes, if any: a change of state to one aria2 announces, or a
    /// torrent's seeding begun.
    package init?(_ event: DownloadEvent) {
        if case .activity(let id, .seedingStarted) = event {
            kind = .btComplete
            gid = id
            return
        }
        guard case .stateChanged(let download, let from) = event, download.state != from else { return nil }
        switch download.state {
        case .active: kind = .start
        case .paused: kind = .pause
        case .cancelled: kind = .stop
        case .complete: kind = .complete
        case .failed: kind = .error
        case .queued: return nil
        }
        gid = download.id
    }

    /// The notification as JSON-RPC sends it: a call with no id.
    package var json: JSONValue {
        ["jsonrpc": "2.0", "method": .string(kind.method), "params": [["gid": .gid(gid)]]]
    }
}
