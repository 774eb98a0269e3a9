import Foundation
import HaulCore

// MARK: - Rows

extension AppState {
    /// Queues up to this long have their rows worked out within the event that changed them;
    /// longer ones a slice per `.scanRows`, and sorts of more matches than this off the UI
    /// thread (`sortRequest`).
    package static let inlineRowLimit = 20_000

    /// Whether rows are still being worked out: the app sends `.scanRows` until they are, and
    /// the screen says so.
    package var isWorkingOutRows: Bool { rowScan != nil || sortRequest != nil }

    /// Whether a scan waits for its next `.scanRows`.
    package var isScanningRows: Bool { rowScan != nil }

    /// The rows must be recomputed: at once when they are the queue order, else lazily. Rows
    /// `appended` at the end of the queue order are scanned on from where the scan stands.
    mutating func markStructureChanged(appended: Int = 0) {
        if appended > 0, !filter.isEmpty, sort == .queue, !visibleDirty {
            if rowScan == nil {
                rowsGeneration += 1
                rowScan = RowScan(generation: rowsGeneration, filter: filter, sort: sort, from: order.count - appended)
            }
            runScan()
            return
        }
        visibleDirty = true
        refreshVisible()
    }

    /// Seconds between re-sorts by speed or progress of a queue longer than `inlineRowLimit`
    /// (each second for a shorter one): a million rows take a few seconds of slices.
    static let longResortInterval = 10

    /// Sorts by speed or progress again: each tick, or every `longResortInterval` ticks for a
    /// long queue, and only once the last sort is shown.
    mutating func resortEachTick() {
        guard sort == .speed || sort == .progress, !isWorkingOutRows else { return }
        ticksSinceResort += 1
        guard order.count <= AppState.inlineRowLimit || ticksSinceResort >= AppState.longResortInterval else { return }
        ticksSinceResort = 0
        visibleDirty = true
        refreshVisible()
    }

    /// Recomputes `visible` from the filter and sort, when something changed: the queue order
    /// at once, else a scan (see `RowScan`).
    mutating func refreshVisible(force: Bool = false) {
        guard visibleDirty || force else { return }
        visibleDirty = false
        rowScan = nil
        sortRequest = nil
        if filter.isEmpty && sort == .queue {
            visible = order
            visibleIsOrder = true
            visiblePosition = [:]
            return
        }
        rowsGeneration += 1
        rowScan = RowScan(generation: rowsGeneration, filter: filter, sort: sort)
        if sort == .queue {
            // A filter's matches are shown as they are found.
            visible = []
            visiblePosition = [:]
            visibleIsOrder = false
        }
        runScan()
    }

    /// The whole scan for a short queue, else its first slice.
    private mutating func runScan() {
        if order.count <= AppState.inlineRowLimit {
            while rowScan != nil { scanRows() }
        } else {
            scanRows()
        }
    }

    /// Scans the next slice; a finished scan's rows are sorted here when few, else asked for.
    mutating func scanRows() {
        guard var scan = rowScan else { return }
        rowScan = nil
        let found = scan.scan(order, downloads: downloads, activity: activity)
        if scan.sort == .queue {
            for key in found {
                visiblePosition[key.id] = visible.count
                visible.append(key.id)
            }
        }
        guard scan.isDone(in: order) else {
            rowScan = scan
            if selected == nil { selected = visible.first }
            return
        }
        if scan.sort != .queue {
            let request = RowSortRequest(generation: scan.generation, keys: scan.matched, sort: scan.sort)
            sortRequest = request
            if scan.matched.count <= AppState.inlineRowLimit { showSorted(request.run()) }
            return
        }
        selectVisibleRow()
    }

    /// Shows a sort's rows, when they are those of the latest scan.
    mutating func showSorted(_ result: RowSortResult) {
        guard result.generation == rowsGeneration, sortRequest?.generation == result.generation else { return }
        sortRequest = nil
        visible = result.rows
        visiblePosition = result.positions
        visibleIsOrder = false
        selectVisibleRow()
    }

    /// Keeps the selection on a shown row: the first when it is not among them.
    private mutating func selectVisibleRow() {
        if selected == nil || selectedIndex == nil { selected = visible.first }
        keepSelectionInView()
    }

    /// The name a row shows (`Download.shownName`), empty for none.
    static func name(of download: Download?) -> String {
        download?.shownName ?? ""
    }

    /// Done as a fraction (0 when the size is unknown).
    static func fraction(_ download: Download?) -> Double {
        guard let download, download.totalBytes > 0 else { return download?.state == .complete ? 1 : 0 }
        return min(Double(download.bytesDone) / Double(download.totalBytes), 1)
    }
}
