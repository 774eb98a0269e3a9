import Foundation
import HaulCore
import HaulTorrent

// MARK: - AppEvent

/// Everything the view model reacts to.
package enum AppEvent: Sendable {
    /// Keys read together; a paste arrives as one batch.
    case keys([Key])
    /// A change in the download queue.
    case queue(DownloadEvent)
    /// A second passed (the time now): the speed graph takes a sample, dynamic sorts re-sort,
    /// messages age, and countdowns to a retry move on.
    case tick(Date)
    /// The theme now in use.
    case themeChanged(String)
    /// Something to tell the user, from outside the reducer (a queue file's summary, an error).
    case notice(String, isError: Bool)
    /// Scan the next slice of rows for the filter or sort (`AppState.isScanningRows`).
    case scanRows
    /// The rows of a `RowSortRequest`, sorted off the UI thread.
    case rowsSorted(RowSortResult)
    /// The bandwidth schedule's limit came into force (`--bandwidth-schedule`), changing next
    /// at the time it says.
    case scheduledLimit(BandwidthScheduler.Status)
    /// The attached daemon's overall limit (nil: none), set there by any client.
    case daemonLimit(Int64?)
    /// A torrent's files, peers, trackers and pieces, as asked for (nil: none known).
    case torrentDetail(GID, TorrentDetail?)
}

// MARK: - Effect

/// What the reducer asks the outside world to do; the app runs effects against the queue.
package enum Effect: Equatable, Sendable {
    case pause([GID])
    case resume([GID])
    case cancel(GID)
    case retry([GID])
    case remove(GID, deleteFile: Bool)
    /// Take these rows off the queue (their files stay).
    case removeRows([GID])
    case move(GID, DownloadQueue.Move)
    /// New downloads from these URIs, in order.
    case add([String])
    case importFile(String)
    case setLimit(GID, Int64?)
    case setGlobalLimit(Int64?)
    /// Answer the download's server with these credentials and retry it.
    case authenticate(GID, user: String, password: String)
    /// Ask for a torrent's detail (`AppEvent.torrentDetail` answers).
    case askTorrentDetail(GID)
    /// Options that change at once (a torrent's `select-file`, its seeding time).
    case changeLiveOptions(GID, DownloadOptions)
    case cycleTheme
    case quit
}
