import HaulCore
import HaulTorrent
import Synchronization

// MARK: - EventInbox

/// Where queue events wait for the UI loop: the queue posts from its callback queue, the loop
/// takes them all at once each turn. Notices for the message line (a store that cannot be
/// written, a queue file loaded), themes loaded off the loop, and a stop request (SIGINT,
/// SIGTERM) wait here too: whatever the loop hands to another thread reports back here, as
/// bubbletea's commands report back as messages.
package final class EventInbox: Sendable {
    private struct Contents {
        var events: [DownloadEvent] = []
        var notices: [Notice] = []
        var theme: Theme?
        var sortedRows: RowSortResult?
        var schedule: BandwidthScheduler.Status?
        /// The attached daemon's overall limit, when it changed (nil inside: none).
        var daemonLimit: Int64??
        /// The latest torrent detail asked for.
        var torrentDetail: (GID, TorrentDetail?)?
        var stopRequested = false
    }

    private let contents = Mutex(Contents())

    package init() {}

    /// Files an event; any thread.
    package func post(_ event: DownloadEvent) {
        contents.withLock { $0.events.append(event) }
    }

    /// A line for the message line.
    struct Notice: Equatable {
        let text: String
        let isError: Bool
    }

    /// Files an error to show on the message line (a store that cannot be written); any thread.
    package func postError(_ text: String) {
        postNotice(text, isError: true)
    }

    /// Files a line to show on the message line; any thread.
    package func postNotice(_ text: String, isError: Bool) {
        contents.withLock { $0.notices.append(Notice(text: text, isError: isError)) }
    }

    /// Files a theme loaded off the loop, to be drawn with from the next turn; any thread.
    package func postTheme(_ theme: Theme) {
        contents.withLock { $0.theme = theme }
    }

    /// Files rows sorted off the loop; only the latest sort is kept. Any thread.
    package func postSortedRows(_ result: RowSortResult) {
        contents.withLock { $0.sortedRows = result }
    }

    /// Files the bandwidth schedule's new limit; only the latest is kept. Any thread.
    package func postSchedule(_ status: BandwidthScheduler.Status) {
        contents.withLock { $0.schedule = status }
    }

    /// Files the attached daemon's overall limit, which changed; only the latest is kept. Any thread.
    package func postDaemonLimit(_ limit: Int64?) {
        contents.withLock { $0.daemonLimit = .some(limit) }
    }

    /// Files a torrent's detail, asked for off the loop; only the latest is kept. Any thread.
    package func postTorrentDetail(_ detail: TorrentDetail?, of id: GID) {
        contents.withLock { $0.torrentDetail = (id, detail) }
    }

    /// Asks the loop to quit at its next turn; any thread.
    package func requestStop() {
        contents.withLock { $0.stopRequested = true }
    }

    /// What `take` hands the loop.
    struct Taken {
        var events: [DownloadEvent]
        var notices: [Notice]
        var theme: Theme?
        var sortedRows: RowSortResult?
        var schedule: BandwidthScheduler.Status?
        var daemonLimit: Int64??
        var torrentDetail: (GID, TorrentDetail?)?
        var stop: Bool

        /// Whether anything here changes the screen.
        var changesScreen: Bool {
            !events.isEmpty || !notices.isEmpty || theme != nil || sortedRows != nil || schedule != nil
                || daemonLimit != nil || torrentDetail != nil
        }
    }

    /// Everything filed since the last call, and whether a stop was asked for.
    func take() -> Taken {
        contents.withLock { contents in
            defer {
                contents.events.removeAll(keepingCapacity: true)
                contents.notices.removeAll()
                contents.theme = nil
                contents.sortedRows = nil
                contents.schedule = nil
                contents.daemonLimit = nil
                contents.torrentDetail = nil
            }
            return Taken(
                events: contents.events, notices: contents.notices, theme: contents.theme,
                sortedRows: contents.sortedRows, schedule: contents.schedule, daemonLimit: contents.daemonLimit,
                torrentDetail: contents.torrentDetail, stop: contents.stopRequested)
        }
    }
}
