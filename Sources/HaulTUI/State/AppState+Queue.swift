import Foundation
import HaulCore
import HaulText

// MARK: - Queue events

extension AppState {
    /// Follows one change of the queue.
    mutating func apply(_ event: DownloadEvent) {
        switch event {
        case .added(let added):
            order.reserveCapacity(order.count + added.count)
            orderPosition.reserveCapacity(order.count + added.count)
            downloads.reserveCapacity(downloads.count + added.count)
            for download in added {
                orderPosition[download.id] = order.count
                order.append(download.id)
                downloads[download.id] = download
                counts[download.state, default: 0] += 1
                totals.count(download, 1)
                if download.torrentLink != nil { torrentRows.insert(download.id) }
                if download.state == .active { activeSpeeds[download.id] = 0 }
            }
            if selected == nil { selected = order.first }
            markStructureChanged(appended: added.count)
        case .stateChanged(let download, let from):
            guard replace(download) else { return }
            counts[from, default: 1] -= 1
            counts[download.state, default: 0] += 1
            if download.state == .active {
                // A new attempt: its activity starts afresh.
                activity[download.id] = DownloadActivity()
                activeSpeeds[download.id] = 0
            } else {
                activeSpeeds.removeValue(forKey: download.id)
            }
        case .updated(let download):
            replace(download)
        case .progress(let id, let progress):
            guard var download = downloads[id] else { return }
            download.completed = progress.completed
            download.totalBytes = progress.totalBytes
            replace(download)
            activity[id, default: DownloadActivity()].speed = progress.speed
            if download.state == .active { activeSpeeds[id] = progress.speed }
        case .activity(let id, let change):
            guard downloads[id] != nil else { return }
            activity[id, default: DownloadActivity()].apply(change)
            if case .torrent = change { torrentRows.insert(id) }
        case .removed(let id):
            let selectedIndex = self.selectedIndex
            guard let old = downloads.removeValue(forKey: id), let position = orderPosition.removeValue(forKey: id)
            else { return }
            counts[old.state, default: 1] -= 1
            totals.count(old, -1)
            torrentRows.remove(id)
            activeSpeeds.removeValue(forKey: id)
            activity.removeValue(forKey: id)
            retriedByHand.removeValue(forKey: id)
            order.remove(at: position)
            for index in position..<order.count { orderPosition[order[index]] = index }
            markStructureChanged()
            if selected == id {
                let index = min(selectedIndex ?? 0, visible.count - 1)
                selected = index >= 0 ? visible[index] : nil
            }
        case .moved(let id, let to):
            guard let from = orderPosition[id] else { return }
            order.remove(at: from)
            order.insert(id, at: to)
            for index in min(from, to)...max(from, to) { orderPosition[order[index]] = index }
            markStructureChanged()
        }
        keepSelectionInView()
    }

    /// Puts `download` in place of its old copy, keeping the totals; false when it is not here.
    @discardableResult
    private mutating func replace(_ download: Download) -> Bool {
        guard let old = downloads.updateValue(download, forKey: download.id) else { return false }
        receivedBytes = receivedBytes.adding(saturating: download.bytesGained(since: old))
        totals.count(old, -1)
        totals.count(download, 1)
        if (!filter.isEmpty || sort == .name) && old.destination != download.destination { visibleDirty = true }
        return true
    }

    // MARK: - Selection

    /// Scrolls so the selected row is on screen.
    mutating func keepSelectionInView() {
        let rows = listHeight
        guard let index = selectedIndex else {
            scrollTop = 0
            return
        }
        if index < scrollTop { scrollTop = index }
        if index >= scrollTop + rows { scrollTop = index - rows + 1 }
        scrollTop = max(0, min(scrollTop, max(visible.count - rows, 0)))
    }

    /// Selects the row `delta` away (clamped).
    mutating func moveSelection(by delta: Int) {
        guard !visible.isEmpty else { return }
        let index = min(max((selectedIndex ?? 0) + delta, 0), visible.count - 1)
        selected = visible[index]
        keepSelectionInView()
    }
}
