import Testing

@testable import HaulCore

/// The queue's packed table of downloads, and the interner that lets equal options share memory.
@Suite("Download table and option interning")
struct DownloadTableTests {
    private func download(_ id: GID) -> Download {
        Download(id: id, uris: ["http://127.0.0.1/\(id)"])
    }

    @Test("lookups, updates, removals and moves keep the order and every other download findable")
    func removals() {
        var table = DownloadTable()
        var batch = ["a", "b", "c", "d", "e"].map(download)
        table.append(&batch)
        table["b"]?.attempts = 3
        let (removed, first) = table.remove(["x", "a", "d", "a"])
        #expect(removed == ["a", "d"] && first == 0)
        table["c"] = nil
        #expect(table.remove(["x"]).removed.isEmpty)
        #expect(table.count == 2)
        #expect(table["a"] == nil && table["c"] == nil && table["d"] == nil)
        #expect(table["b"]?.attempts == 3)
        #expect(table.ids == ["b", "e"])
        table["f"] = download("f")
        #expect(table.ids == ["b", "e", "f"])
        #expect(table.move("f", to: 0) == 2)
        #expect(table.ids == ["f", "b", "e"])
        #expect(table.move("f", to: 99) == 0)
        #expect(table.ids == ["b", "e", "f"])
        for (index, id) in table.ids.enumerated() {
            #expect(table.index(of: id) == index && table[position: index].id == id)
        }
        #expect(table.downloads(at: 1..<10).map(\.id) == ["e", "f"])
        #expect(table.move("x", to: 0) == nil)
    }

    @Test("update files a download in place, or adds it at the end, and gives back the one it replaced")
    func update() {
        var table = DownloadTable()
        var batch = ["a", "b"].map(download)
        table.append(&batch)
        var changed = download("a")
        changed.attempts = 2
        #expect(table.update(changed)?.attempts == 0)
        #expect(table.ids == ["a", "b"] && table["a"]?.attempts == 2)
        #expect(table.update(download("c")) == nil)
        #expect(table.ids == ["a", "b", "c"] && table.index(of: "c") == 2)
    }

    @Test("a gid already queued, or named twice in one batch, gets a new one")
    func duplicateIDs() {
        var table = DownloadTable()
        var first = [download("0000000000000001")]
        table.append(&first)
        var batch = ["0000000000000001", "0000000000000002", "0000000000000002"].map(download)
        table.append(&batch)
        #expect(batch[0].id != "0000000000000001")
        #expect(batch[1].id == "0000000000000002")
        #expect(batch[2].id != "0000000000000002")
        #expect(Set(table.ids).count == 4)
        for download in batch { #expect(table[download.id]?.uris == download.uris) }
    }

    @Test("equal options share one set of values; a gid or another value does not")
    func interning() throws {
        var interner = DownloadOptions.Interner()
        var paused = DownloadOptions()
        try paused.set("pause", "true")
        var pausedAgain = DownloadOptions()
        try pausedAgain.set("pause", "true")
        var named = pausedAgain
        try named.set("gid", "00000000000000ff")
        let first = interner.intern(paused)
        let second = interner.intern(pausedAgain)
        let third = interner.intern(named)
        #expect(first == second && third != second)
        #expect(first.sharesValues(with: second))
        #expect(!third.sharesValues(with: second))
        // Entries without options keep the one shared box of none, found by the box itself.
        let none = interner.intern(DownloadOptions())
        #expect(none.sharesValues(with: DownloadOptions()) && none != first)
        #expect(interner.intern(DownloadOptions()).sharesValues(with: none))
        #expect(interner.intern(paused).sharesValues(with: first))
    }

    @Test("a download takes 80 bytes, its gid 8, a queue-file entry 48: what a queue of a million pays for each")
    func sizes() {
        #expect(MemoryLayout<Download>.stride == 80)
        #expect(MemoryLayout<GID>.stride == 8)
        // A queue file's entries are all read before the first is queued.
        #expect(MemoryLayout<QueueEntry>.stride == 48)
    }
}
