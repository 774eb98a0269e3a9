import OrderedCollections

// MARK: - DownloadTable

/// Downloads in order (the queue's order) with each one found by id: an `OrderedDictionary`,
/// whose values are packed in one array and whose index of ids holds only their positions, a
/// few bytes each. A dictionary of downloads would keep each ~100-byte value in a hash bucket
/// (a hash table has up to twice as many buckets as entries), and a separate order and index of
/// positions would hash every id twice more: for a queue of a million, some 200 MB.
///
/// **Threading:** a value; the queue keeps it under its lock.
struct DownloadTable {
    private var table: OrderedDictionary<GID, Download> = [:]
    /// The most room asked for so far: the table's own `reserveCapacity` builds its index of ids
    /// anew whenever the room asked for changes, even to less, so a queue file added in pieces
    /// after room was made for all of it would rebuild the index once a piece.
    private var reserved = 0

    var count: Int { table.count }

    /// Every download, in order.
    var values: [Download] { table.values.elements }

    /// Every id, in order.
    var ids: [GID] { table.keys.elements }

    /// Makes room for `count` downloads in all (room made before is kept).
    mutating func reserveCapacity(_ count: Int) {
        guard count > reserved else { return }
        reserved = count
        table.reserveCapacity(count)
    }

    /// How many downloads `isIncluded` takes, each read where it is.
    func count(where isIncluded: (Download) -> Bool) -> Int {
        table.values.count(where: isIncluded)
    }

    /// The ids of the downloads `isIncluded` takes, in order.
    func ids(where isIncluded: (Download) -> Bool) -> [GID] {
        table.values.compactMap { isIncluded($0) ? $0.id : nil }
    }

    /// The index of the download with `id`.
    func index(of id: GID) -> Int? {
        table.index(forKey: id)
    }

    /// The download at `index` (in `0..<count`).
    subscript(position index: Int) -> Download {
        table.values[index]
    }

    /// The downloads at `positions`, clamped to the table.
    func downloads(at positions: Range<Int>) -> ArraySlice<Download> {
        table.values.elements[positions.clamped(to: 0..<table.count)]
    }

    /// Adds `downloads` at the end, giving any whose id is already taken (a queue file naming a
    /// gid twice) a new one, written back into `downloads`.
    mutating func append(_ downloads: inout [Download]) {
        reserveCapacity(table.count + downloads.count)
        for index in downloads.indices {
            // One lookup a download: an id that was taken gets its first download back.
            while let taken = table.updateValue(downloads[index], forKey: downloads[index].id) {
                table[downloads[index].id] = taken
                downloads[index].id = GID.next()
            }
        }
    }

    /// The download with `id`; setting one not here adds it at the end, setting nil removes it.
    subscript(id: GID) -> Download? {
        get { table[id] }
        set {
            guard let newValue else {
                remove([id])
                return
            }
            replace(id, with: newValue)
        }
    }

    /// Files `download` under its id, as setting it does; the download it replaced.
    @discardableResult
    mutating func update(_ download: consuming Download) -> Download? {
        replace(download.id, with: download)
    }

    /// Files `download` under `id` (added at the end when new); the download it replaced. One
    /// lookup finds an existing one, and the two are exchanged in place, neither copied.
    @discardableResult
    private mutating func replace(_ id: GID, with download: consuming Download) -> Download? {
        guard let index = table.index(forKey: id) else {
            table[id] = download
            return nil
        }
        swap(&table.values[index], &download)
        return download
    }

    /// Changes the download with `id` in place (no copy of it); false when there is none.
    @discardableResult
    mutating func modify(_ id: GID, _ change: (inout Download) -> Void) -> Bool {
        guard let index = table.index(forKey: id) else { return false }
        change(&table.values[index])
        return true
    }

    /// Removes the downloads with `ids`, in one pass; returns the ids that were here, and the
    /// index the first of them had.
    @discardableResult
    mutating func remove(_ ids: [GID]) -> (removed: [GID], first: Int) {
        var gone = Set<GID>()
        let removed = ids.filter { table.index(forKey: $0) != nil && gone.insert($0).inserted }
        guard !removed.isEmpty else { return ([], table.count) }
        let first = removed.compactMap { table.index(forKey: $0) }.min() ?? table.count
        if removed.count == 1 {
            table.remove(at: first)
        } else {
            table.removeAll { gone.contains($0.key) }
        }
        return (removed, first)
    }

    /// Moves the download with `id` to `index` (clamped); returns where it was, if it is here.
    @discardableResult
    mutating func move(_ id: GID, to index: Int) -> Int? {
        guard let from = table.index(forKey: id) else { return nil }
        let to = min(max(index, 0), table.count - 1)
        guard to != from else { return from }
        let (key, download) = table.remove(at: from)
        table.updateValue(download, forKey: key, insertingAt: to)
        return from
    }
}
