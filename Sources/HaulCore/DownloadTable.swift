// MARK: - DownloadTable

/// Downloads in order (the queue's order), packed into one array, with each one's index by id
/// beside it: the order, the positions and the downloads in one array and one index. A
/// dictionary of downloads would keep each ~90-byte value in a hash bucket (a hash table has up
/// to twice as many buckets as entries), and a separate order and index of positions would
/// hash every id twice more: for a queue of a million, some 130 MB.
///
/// **Threading:** a value; the queue keeps it under its lock.
struct DownloadTable {
    private var slots: [Download] = []
    /// Each download's index in `slots`.
    private var slotOf: [String: Int] = [:]

    var count: Int { slots.count }

    /// Every download, in order.
    var values: [Download] { slots }

    /// Every id, in order.
    var ids: [String] { slots.map(\.id) }

    /// Makes room for `count` downloads in all.
    mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        slotOf.reserveCapacity(count)
    }

    /// How many downloads `isIncluded` takes, each read where it is.
    func count(where isIncluded: (Download) -> Bool) -> Int {
        slots.count(where: isIncluded)
    }

    /// The ids of the downloads `isIncluded` takes, in order.
    func ids(where isIncluded: (Download) -> Bool) -> [String] {
        slots.compactMap { isIncluded($0) ? $0.id : nil }
    }

    /// The index of the download with `id`.
    func index(of id: String) -> Int? {
        slotOf[id]
    }

    /// The download at `index` (in `0..<count`).
    subscript(position index: Int) -> Download {
        slots[index]
    }

    /// The downloads at `positions`, clamped to the table.
    func downloads(at positions: Range<Int>) -> ArraySlice<Download> {
        slots[positions.clamped(to: 0..<slots.count)]
    }

    /// Adds `downloads` at the end, giving any whose id is already taken (a queue file naming a
    /// gid twice) a new one, written back into `downloads`. An empty table with no room made
    /// for it takes the array's storage as it is: a queue of 100,000 is not copied.
    mutating func append(_ downloads: inout [Download]) {
        slotOf.reserveCapacity(slotOf.count + downloads.count)
        for index in downloads.indices {
            while slotOf[downloads[index].id] != nil { downloads[index].id = Download.makeID() }
            slotOf[downloads[index].id] = slots.count + index
        }
        if slots.isEmpty, slots.capacity < downloads.count {
            slots = downloads
        } else {
            slots.append(contentsOf: downloads)
        }
    }

    /// The download with `id`; setting one not here adds it at the end, setting nil removes it.
    subscript(id: String) -> Download? {
        get { slotOf[id].map { slots[$0] } }
        set {
            guard let newValue else {
                remove([id])
                return
            }
            if let slot = slotOf[id] {
                slots[slot] = newValue
            } else {
                slotOf[id] = slots.count
                slots.append(newValue)
            }
        }
    }

    /// Changes the download with `id` in place (no copy of it); false when there is none.
    @discardableResult
    mutating func modify(_ id: String, _ change: (inout Download) -> Void) -> Bool {
        guard let slot = slotOf[id] else { return false }
        change(&slots[slot])
        return true
    }

    /// Removes the downloads with `ids`, in one pass over the ones after the first of them;
    /// returns the ids that were here, and the index the first of them had.
    @discardableResult
    mutating func remove(_ ids: [String]) -> (removed: [String], first: Int) {
        let removed = ids.filter { slotOf.removeValue(forKey: $0) != nil }
        guard !removed.isEmpty else { return ([], slots.count) }
        let gone = Set(removed)
        let first = slots.firstIndex { gone.contains($0.id) } ?? slots.count
        slots.removeAll { gone.contains($0.id) }
        for slot in first..<slots.count { slotOf[slots[slot].id] = slot }
        return (removed, first)
    }

    /// Moves the download with `id` to `index` (clamped); returns where it was, if it is here.
    @discardableResult
    mutating func move(_ id: String, to index: Int) -> Int? {
        guard let from = slotOf[id] else { return nil }
        let to = min(max(index, 0), slots.count - 1)
        guard to != from else { return from }
        let download = slots.remove(at: from)
        slots.insert(download, at: to)
        for slot in min(from, to)...max(from, to) { slotOf[slots[slot].id] = slot }
        return from
    }
}
