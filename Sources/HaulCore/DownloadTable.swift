// MARK: - DownloadTable

/// The queue's downloads by id, packed into one array with an index of ids beside it. A
/// dictionary of downloads would keep each ~150-byte value in a hash bucket, and a hash table
/// has up to twice as many buckets as entries: for a queue of 100,000 that is twice the memory.
///
/// **Threading:** a value; the queue keeps it under its lock.
struct DownloadTable {
    private var slots: [Download] = []
    /// Each download's index in `slots`.
    private var slotOf: [String: Int] = [:]

    var count: Int { slots.count }

    /// Every download, in the order they were added while none was removed.
    var values: [Download] { slots }

    /// Makes room for `count` downloads in all.
    mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        slotOf.reserveCapacity(count)
    }

    /// How many downloads `isIncluded` takes, each read where it is.
    func count(where isIncluded: (Download) -> Bool) -> Int {
        slots.count(where: isIncluded)
    }

    /// The ids of the downloads `isIncluded` takes, in no particular order.
    func ids(where isIncluded: (Download) -> Bool) -> [String] {
        slots.compactMap { isIncluded($0) ? $0.id : nil }
    }

    /// Adds `downloads` at the end, giving any whose id is already taken (a queue file naming a
    /// gid twice) a new one, written back into `downloads`. An empty table takes the array's
    /// storage as it is: a queue of 100,000 is not copied.
    mutating func append(_ downloads: inout [Download]) {
        slotOf.reserveCapacity(slotOf.count + downloads.count)
        for index in downloads.indices {
            while slotOf[downloads[index].id] != nil { downloads[index].id = Download.makeID() }
            slotOf[downloads[index].id] = slots.count + index
        }
        if slots.isEmpty {
            slots = downloads
        } else {
            slots.append(contentsOf: downloads)
        }
    }

    /// The download with `id`; setting nil removes it.
    subscript(id: String) -> Download? {
        get { slotOf[id].map { slots[$0] } }
        set {
            guard let newValue else {
                removeValue(forKey: id)
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

    /// Removes the download with `id` and returns it; the last slot's download fills the gap.
    @discardableResult
    mutating func removeValue(forKey id: String) -> Download? {
        guard let slot = slotOf.removeValue(forKey: id) else { return nil }
        let last = slots.removeLast()
        guard slot < slots.count else { return last }
        let removed = slots[slot]
        slots[slot] = last
        slotOf[last.id] = slot
        return removed
    }
}
