import Foundation
import HaulCore
import HaulText

// MARK: - RowScan

/// The rows of a filter or a sort being worked out a slice at a time, so that no frame waits for
/// a million rows: the reducer scans `sliceSize` rows of the queue order per `.scanRows` event,
/// shows a filter's matches as they are found, and hands a long sort to the app as a
/// `RowSortRequest`, whose result comes back as `.rowsSorted`.
///
/// **Threading:** a value inside `AppState`, on the UI thread; `sorted` runs on any thread.
struct RowScan: Sendable {
    /// Rows scanned per slice: about a millisecond of matching names.
    static let sliceSize = 2048

    /// Which scan this is: a sort that comes back for an older one is dropped.
    let generation: Int
    /// The filter, lowercased; empty for none.
    let needle: String
    /// Whether `needle` is ASCII, so names are matched byte by byte without lowercasing them.
    let needleIsASCII: Bool
    let sort: AppState.SortKey
    /// How far through the queue order the scan has come.
    var cursor: Int
    /// The rows that matched, in queue order, with what they sort by.
    var matched: [RowSortKey] = []

    init(generation: Int, filter: String, sort: AppState.SortKey, from cursor: Int = 0) {
        self.generation = generation
        needle = filter.lowercased()
        needleIsASCII = needle.utf8.allSatisfy { $0 < 0x80 }
        self.sort = sort
        self.cursor = cursor
    }

    /// Scans up to `sliceSize` more rows of `order`; returns the ids that matched, in order.
    mutating func scan(
        _ order: [GID], downloads: [GID: Download], activity: [GID: DownloadActivity]
    ) -> ArraySlice<RowSortKey> {
        let start = matched.count
        let end = min(cursor + RowScan.sliceSize, order.count)
        while cursor < end {
            let id = order[cursor]
            cursor += 1
            guard let download = downloads[id] else { continue }
            let name = sort == .name || !needle.isEmpty ? AppState.name(of: download) : ""
            guard needle.isEmpty || matches(name) else { continue }
            matched.append(key(for: download, name: name, activity: activity[id]))
        }
        return matched[start...]
    }

    /// Whether every row has been scanned.
    func isDone(in order: [GID]) -> Bool { cursor >= order.count }

    /// Whether `name` holds the filter, ignoring case.
    func matches(_ name: String) -> Bool {
        guard needleIsASCII, name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return name.lowercased().contains(needle)
        }
        return RowScan.containsFoldingASCII(name.utf8, needle.utf8)
    }

    private func key(for download: Download, name: String, activity: DownloadActivity?) -> RowSortKey {
        let value: Double
        switch sort {
        case .queue, .name: value = 0
        case .progress: value = AppState.fraction(download)
        case .speed: value = activity?.speed ?? 0
        case .size: value = Double(download.totalBytes)
        }
        return RowSortKey(id: download.id, name: sort == .name ? name : "", value: value, position: matched.count)
    }

    /// Whether ASCII `text` holds lowercase ASCII `needle`, with `text`'s capitals folded.
    static func containsFoldingASCII(_ text: String.UTF8View, _ needle: String.UTF8View) -> Bool {
        guard let first = needle.first else { return true }
        let rest = needle.dropFirst()
        var index = text.startIndex
        while index != text.endIndex {
            if ASCIIText.folded(text[index]) == first {
                var candidate = text.index(after: index)
                var matchedAll = true
                for byte in rest {
                    guard candidate != text.endIndex, ASCIIText.folded(text[candidate]) == byte else {
                        matchedAll = false
                        break
                    }
                    candidate = text.index(after: candidate)
                }
                if matchedAll { return true }
            }
            index = text.index(after: index)
        }
        return false
    }

    // MARK: - Sorting

    /// `keys` in the order `sort` gives: names in natural order (`file2` before `file10`), the
    /// rest largest first; ties keep queue order. Runs on any thread.
    static func sorted(_ keys: [RowSortKey], by sort: AppState.SortKey) -> [GID] {
        var keys = keys
        switch sort {
        case .queue: break
        case .name:
            keys.sort {
                switch NaturalOrder.compare($0.name, $1.name) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: $0.position < $1.position
                }
            }
        case .progress, .speed, .size:
            keys.sort { $0.value != $1.value ? $0.value > $1.value : $0.position < $1.position }
        }
        return keys.map(\.id)
    }
}

/// One matched row and what it sorts by.
struct RowSortKey: Sendable, Equatable {
    let id: GID
    /// The row's name when sorting by name, else empty.
    let name: String
    /// Progress, speed or size when sorting by them.
    let value: Double
    /// Its place among the matched rows in queue order: ties keep it.
    let position: Int
}

/// A sort too long for one frame, for the app to run off the UI thread; its result comes back
/// as `AppEvent.rowsSorted`.
package struct RowSortRequest: Sendable, Equatable {
    package let generation: Int
    let keys: [RowSortKey]
    let sort: AppState.SortKey

    /// The rows in order, with each one's index; any thread.
    package func run() -> RowSortResult {
        let rows = RowScan.sorted(keys, by: sort)
        return RowSortResult(
            generation: generation, rows: rows,
            positions: Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1, $0) }))
    }

    package static func == (lhs: RowSortRequest, rhs: RowSortRequest) -> Bool {
        lhs.generation == rhs.generation && lhs.sort == rhs.sort && lhs.keys.count == rhs.keys.count
    }
}

/// What a `RowSortRequest` gave.
package struct RowSortResult: Sendable {
    package let generation: Int
    let rows: [GID]
    let positions: [GID: Int]
}
