import HaulCore
import Synchronization

// MARK: - EventInbox

/// Where queue events wait for the UI loop: the queue posts from its callback queue, the loop
/// takes them all at once each turn. A stop request (SIGINT, SIGTERM) waits here too.
public final class EventInbox: Sendable {
    private struct Contents {
        var events: [DownloadEvent] = []
        var errors: [String] = []
        var stopRequested = false
    }

    private let contents = Mutex(Contents())

    public init() {}

    /// Files an event; any thread.
    public func post(_ event: DownloadEvent) {
        contents.withLock { $0.events.append(event) }
    }

    /// Files an error to show on the message line (a store that cannot be written); any thread.
    public func postError(_ text: String) {
        contents.withLock { $0.errors.append(text) }
    }

    /// Asks the loop to quit at its next turn; any thread.
    public func requestStop() {
        contents.withLock { $0.stopRequested = true }
    }

    /// Every event and error filed since the last call, and whether a stop was asked for.
    func take() -> (events: [DownloadEvent], errors: [String], stop: Bool) {
        contents.withLock { contents in
            defer {
                contents.events.removeAll(keepingCapacity: true)
                contents.errors.removeAll()
            }
            return (contents.events, contents.errors, contents.stopRequested)
        }
    }
}
