import HaulCore

// MARK: - Aria2Notification

/// What a WebSocket client hears when a download starts, pauses, stops, completes or fails:
/// aria2's notification, naming the download by its gid.
public struct Aria2Notification: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case start = "onDownloadStart"
        case pause = "onDownloadPause"
        case stop = "onDownloadStop"
        case complete = "onDownloadComplete"
        case error = "onDownloadError"
        case btComplete = "onBtDownloadComplete"

        public var method: String { "aria2." + rawValue }
    }

    public let kind: Kind
    public let gid: GID

    public init(_ kind: Kind, gid: GID) {
        self.kind = kind
        self.gid = gid
    }

    /// The notification `event` makes, if any: a change of state to one aria2 announces.
    public init?(_ event: DownloadEvent) {
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
    public var json: JSONValue {
        ["jsonrpc": "2.0", "method": .string(kind.method), "params": [["gid": .gid(gid)]]]
    }
}
