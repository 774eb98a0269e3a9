import Foundation
import HaulCore
import HaulTorrent

// MARK: - AppState

/// The view model: what the screen shows, kept up to date from queue events and changed by
/// keys. `reduce` is pure (no I/O, no clock): it returns `Effect`s for the app to run, so every
/// behaviour is a unit test.
///
/// **Threading:** a value; the app owns it on the UI (main) thread.
package struct AppState: Sendable {
    package enum SortKey: String, CaseIterable, Sendable {
        case queue = "queue order", name, progress, speed, size
    }

    package enum PromptKind: Equatable, Sendable {
        case add, importFile, filter, limitSelected(GID), limitGlobal
        /// The user name, then the password, a download's server asked for.
        case user(id: GID, host: String)
        case password(id: GID, host: String, user: String)

        var title: String {
            switch self {
            case .add: "Add URLs"
            case .importFile: "Import queue file (a path or a URL)"
            case .filter: "Filter"
            case .limitSelected: "Limit this download (2M; 0: none)"
            case .limitGlobal: "Global limit (10M; 0: none)"
            case .user(_, let host): "User name for \(host) (Esc: leave it failed)"
            case .password(_, let host, let user): "Password for \(user) at \(host)"
            }
        }

        /// Whether the text is drawn as dots.
        var isSecret: Bool {
            if case .password = self { return true }
            return false
        }
    }

    package struct Prompt: Equatable, Sendable {
        package let kind: PromptKind
        package var text: [Character] = []
        package var cursor = 0

        package var title: String { kind.title }
        /// The text as drawn: a dot for each character of a secret.
        package var shown: [Character] { kind.isSecret ? Array(repeating: "•", count: text.count) : text }
    }

    package enum Confirmation: Equatable, Sendable {
        case remove(GID, deleteFile: Bool)
        /// Clear the rows of ended downloads (how many there are when asked).
        case clearEnded(count: Int)
        case quit(active: Int)
    }

    package enum Mode: Equatable, Sendable {
        case normal, help
        case prompt(Prompt)
        case confirm(Confirmation)
    }

    /// A line on the message row; it fades after a few seconds (an error after a few more).
    package struct Message: Equatable, Sendable {
        package let text: String
        package let isError: Bool
        /// Seconds it has been shown.
        package private(set) var age = 0

        package init(text: String, isError: Bool) {
            self.text = text
            self.isError = isError
        }

        /// Seconds a message stays: 5, an error 10.
        package var lifetime: Int { isError ? 10 : 5 }

        /// This message `seconds` later, or nil once it has faded.
        func aged(by seconds: Int) -> Message? {
            var older = self
            older.age += seconds
            return older.age >= lifetime ? nil : older
        }
    }

    // MARK: - Downloads

    package internal(set) var downloads: [GID: Download] = [:]
    /// Queue order.
    package internal(set) var order: [GID] = []
    /// Each download's index in `order`.
    var orderPosition: [GID: Int] = [:]
    /// The rows shown: `order` filtered and sorted.
    package internal(set) var visible: [GID] = []
    var visiblePosition: [GID: Int] = [:]
    var visibleIsOrder = true
    var visibleDirty = false
    /// The filter or sort being worked out, a slice per `.scanRows` (see `RowScan`).
    var rowScan: RowScan?
    /// Counts scans: a sort that comes back for an older one is dropped.
    var rowsGeneration = 0
    /// Ticks since rows sorted by speed or progress were last sorted again.
    var ticksSinceResort = 0
    /// A finished scan's rows, for the app to sort off the UI thread and send back as
    /// `.rowsSorted`.
    package internal(set) var sortRequest: RowSortRequest?
    /// How many downloads are in each state.
    package internal(set) var counts: [Download.State: Int] = [:]
    /// Bytes a second of each active download.
    var activeSpeeds: [GID: Double] = [:]
    /// Bytes received in all since the screen began (each download's gains, never taken back),
    /// and its count at the last tick: the speed of many small files, each done in one write
    /// before it ever shows a speed of its own.
    var receivedBytes: Int64 = 0
    var receivedAtTick: (bytes: Int64, time: Date)?
    /// Bytes a second received over the last tick.
    var receivedSpeed: Double = 0
    /// What each download's attempt shows (speed, connections, response), beside `downloads`.
    package internal(set) var activity: [GID: DownloadActivity] = [:]
    /// Bytes received and file sizes summed over the queue (sizes where known), and the bytes
    /// still to come of unfinished downloads of known size: the header's totals and ETA.
    package internal(set) var totals = Totals()

    /// Kept in 128 bits, so that a queue of a million downloads each as large as `Int64` allows
    /// (a hostile server's sizes, a store written by another program) sums exactly and each
    /// taken away again leaves no drift; read as `Int64`, held at `Int64.max`.
    package struct Totals: Equatable, Sendable {
        private var sums: (done: Int128, size: Int128, remaining: Int128) = (0, 0, 0)

        package init(done: Int64 = 0, size: Int64 = 0, remaining: Int64 = 0) {
            sums = (Int128(done), Int128(size), Int128(remaining))
        }

        package var done: Int64 { Totals.clamped(sums.done) }
        package var size: Int64 { Totals.clamped(sums.size) }
        package var remaining: Int64 { Totals.clamped(sums.remaining) }

        /// `download`'s share: added with `sign` 1, taken away with -1.
        mutating func count(_ download: Download, _ sign: Int128) {
            let total = Int128(max(download.totalBytes, 0))
            let done = Int128(max(download.bytesDone, 0))
            sums.done += sign * done
            sums.size += sign * total
            if !download.state.isFinal, total > 0 {
                sums.remaining += sign * max(total - done, 0)
            }
        }

        package static func == (lhs: Totals, rhs: Totals) -> Bool {
            lhs.sums == rhs.sums
        }

        private static func clamped(_ value: Int128) -> Int64 {
            Int64(clamping: value)
        }
    }

    // MARK: - View

    package var width: Int
    package var height: Int
    package internal(set) var selected: GID?
    package internal(set) var scrollTop = 0
    package internal(set) var showDetail = false
    package internal(set) var mode = Mode.normal
    /// The first help row shown (the help screen scrolls on a small terminal).
    package internal(set) var helpScroll = 0
    package internal(set) var filter = ""
    package internal(set) var sort = SortKey.queue
    package internal(set) var message: Message?
    /// Total speed, one sample a second, oldest first, at most `historyLength`.
    package internal(set) var speedHistory: [Double] = []
    package internal(set) var globalLimit: Int64?
    /// The bandwidth schedule's latest word, when one is set: the header says when the limit
    /// changes next.
    package internal(set) var schedule: BandwidthScheduler.Status?
    /// The time zone the header's times are shown in.
    package var timeZone = TimeZone.current
    /// Downloads refused by their server whose user was already told they need a login: told
    /// once per refusal (`u` asks for one any time).
    var credentialsAsked: Set<GID> = []
    /// How often the user retried each download (`r`, `R`): a retry starts its attempts again
    /// at 1, so this is what says it was tried again, on the message line and in the detail pane.
    package internal(set) var retriedByHand: [GID: Int] = [:]
    /// The selected torrent's files, peers, trackers and pieces, as last asked for (each second
    /// while its detail pane shows).
    package internal(set) var torrentDetail: (id: GID, detail: TorrentDetail)?
    /// Which of the selected torrent's files `[` and `]` move to and `f` ticks, from 0.
    package internal(set) var fileCursor = 0
    /// The rows that are torrents (by their link, or a daemon's word): while there are any, the
    /// list shows their columns (upload, peers, ratio).
    package internal(set) var torrentRows: Set<GID> = []
    package internal(set) var themeName: String
    package let keyMap: KeyMap
    /// The time of the last tick: retry countdowns count to it.
    package internal(set) var now = Date(timeIntervalSince1970: 0)
    /// Downloads that run at once (`-j`): a queued row says it waits for a free slot.
    package let maxConcurrentDownloads: Int
    /// Whether the queue's downloads go on when the screen quits (a daemon's), which quitting says.
    package let queueOutlivesScreen: Bool

    package static let historyLength = 60

    package init(
        width: Int, height: Int, themeName: String = "default", globalLimit: Int64? = nil,
        keyMap: KeyMap = .standard, maxConcurrentDownloads: Int = BuiltInOptions.maxConcurrentDownloads,
        queueOutlivesScreen: Bool = false
    ) {
        self.maxConcurrentDownloads = maxConcurrentDownloads
        self.queueOutlivesScreen = queueOutlivesScreen
        self.width = width
        self.height = height
        self.themeName = themeName
        self.globalLimit = globalLimit
        self.keyMap = keyMap
    }

    // MARK: - Reading

    /// The overall limit as the header says it (`limit 1.0 MiB/s`, `no limit`), with as much of
    /// the bandwidth schedule's next change as `detail` asks.
    package func limitSummary(_ detail: BandwidthScheduler.Status.Detail) -> String {
        guard let schedule else { return BandwidthScheduler.Status.limitText(globalLimit) }
        return schedule.summary(limit: globalLimit, detail: detail, now: now, timeZone: timeZone)
    }

    /// The header's speed: the active downloads' speeds summed, or what arrived over the last
    /// tick when that is more (small files end before they show one).
    package var totalSpeed: Double { max(activeSpeeds.values.reduce(0, +), receivedSpeed) }

    package var selectedDownload: Download? { selected.flatMap { downloads[$0] } }

    /// The selected row's index in `visible`.
    package var selectedIndex: Int? {
        guard let selected else { return nil }
        return visibleIsOrder ? orderPosition[selected] : visiblePosition[selected]
    }

    /// Rows of the queue list: the screen less the header (2), column titles (1), message line
    /// and function bar (2), and the detail pane when shown.
    package var listHeight: Int {
        let available = height - 5
        return max(showDetail ? available - detailHeight : available, 1)
    }

    /// The screen row the detail pane starts at: right under the last row when the rows are
    /// fewer than the list has room for (on a tall screen the pane follows a short queue, not
    /// the bottom of the screen), else under the list.
    package var detailTop: Int {
        AppState.listTop + min(listHeight, max(visible.count - scrollTop, 1))
    }

    /// Rows of the detail pane: as many as its lines need (with its border and range map), in
    /// what the queue leaves: all but its rows when they are few, else half.
    package var detailHeight: Int {
        let available = height - 5
        let wanted = (selectedDownload.map { DetailView.lines(of: $0, in: self, width: width).count } ?? 0) + 2
        let listKeeps = min(max(visible.count, 1), max(available / 2, 1))
        return max(min(wanted, available - listKeeps), min(4, available))
    }

}
