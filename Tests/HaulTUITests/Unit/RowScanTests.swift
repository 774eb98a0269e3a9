import Foundation
import HaulCore
import Testing

@testable import HaulTUI

// MARK: - Rows of a long queue

@Suite("Rows of a long queue")
struct RowScanTests {
    /// A queue longer than `AppState.inlineRowLimit`: `f0` … `f{count-1}`, sizes rising.
    static func longQueue(_ count: Int = AppState.inlineRowLimit + 10_000) -> AppState {
        let many = (0..<count).map { Fixtures.download($0, name: "f\($0)", total: Int64($0 + 1)) }
        var state = AppState(width: 120, height: 40)
        _ = state.reduce(.queue(.added(many)))
        return state
    }

    static func keys(_ text: String) -> [Key] { text.map { .character($0) } }

    /// Sends `.scanRows` until the scan is done; returns how many it took.
    @discardableResult
    static func finishScan(_ state: inout AppState) -> Int {
        var slices = 0
        while state.isScanningRows {
            _ = state.reduce(.scanRows)
            slices += 1
        }
        return slices
    }

    @Test("a filter of a long queue shows matches a slice at a time, in queue order, and says it is filtering")
    func filterInSlices() {
        var state = RowScanTests.longQueue()
        _ = state.reduce(.keys([.character("/")] + RowScanTests.keys("F29")))
        // One slice scanned: f29 and f290…f299 in the first 2048 rows.
        #expect(state.isScanningRows)
        #expect(state.visible.count == 1 + 10)
        #expect(state.visible.first.flatMap { state.downloads[$0] }?.shownName == "f29")
        #expect(ScreenRenderer.render(state).line(1).contains("filtering…"))
        let slices = RowScanTests.finishScan(&state)
        #expect(slices == (state.order.count + RowScan.sliceSize - 1) / RowScan.sliceSize - 1)
        let expected = state.order.filter { state.downloads[$0]?.shownName.contains("f29") == true }
        #expect(state.visible == expected)
        #expect(state.selectedIndex == 0)
        #expect(!ScreenRenderer.render(state).line(1).contains("filtering…"))
    }

    @Test("rows added behind a finished filter are scanned on, not scanned again from the top")
    func appendedRowsAreScannedOn() {
        var state = RowScanTests.longQueue()
        _ = state.reduce(.keys([.character("/")] + RowScanTests.keys("f1") + [.enter]))
        RowScanTests.finishScan(&state)
        let before = state.visible
        let count = state.order.count
        let more = (count..<(count + 5000)).map { Fixtures.download($0, name: "f\($0)") }
        _ = state.reduce(.queue(.added(more)))
        #expect(Array(state.visible.prefix(before.count)) == before)
        #expect(RowScanTests.finishScan(&state) <= 2)
        #expect(state.visible == state.order.filter { state.downloads[$0]?.shownName.contains("f1") == true })
    }

    @Test("a long sort is asked of the app; its result shows, one for an older scan is dropped")
    func sortOffTheLoop() throws {
        var state = RowScanTests.longQueue()
        let queueOrder = state.visible
        for _ in 0..<4 { _ = state.reduce(.keys([.character("s")])) }
        #expect(state.sort == .size)
        RowScanTests.finishScan(&state)
        let request = try #require(state.sortRequest)
        // Until the sort comes back the rows stay as they were, and the screen says so.
        #expect(state.visible == queueOrder)
        #expect(ScreenRenderer.render(state).line(1).contains("sorting…"))
        let result = request.run()
        // A newer scan (the filter changed) drops the older sort; its 11,111 matches sort at once.
        _ = state.reduce(.keys([.character("/")] + RowScanTests.keys("f2") + [.enter]))
        RowScanTests.finishScan(&state)
        let filtered = state.visible
        _ = state.reduce(.rowsSorted(result))
        #expect(state.visible == filtered && state.sortRequest == nil)
        let sizes = state.visible.compactMap { state.downloads[$0]?.totalBytes }
        #expect(state.visible.count == 11_111 && sizes == sizes.sorted(by: >))
        #expect(state.visible.allSatisfy { state.downloads[$0]?.shownName.contains("f2") == true })
        #expect(state.selectedIndex == 0)

        // The whole queue again: the sort comes back and shows.
        _ = state.reduce(.keys([.character("/"), .escape]))
        RowScanTests.finishScan(&state)
        let whole = try #require(state.sortRequest)
        _ = state.reduce(.rowsSorted(whole.run()))
        #expect(state.sortRequest == nil && state.visible.first == state.order.last)
        #expect(!ScreenRenderer.render(state).line(1).contains("sorting…"))
    }

    @Test("a long queue sorted by speed is sorted again every 10 ticks, a short one every tick")
    func resortInterval() throws {
        var long = RowScanTests.longQueue()
        for _ in 0..<3 { _ = long.reduce(.keys([.character("s")])) }
        #expect(long.sort == .speed)
        RowScanTests.finishScan(&long)
        _ = long.reduce(.rowsSorted(try #require(long.sortRequest).run()))
        for tick in 1...AppState.longResortInterval {
            _ = long.reduce(.tick(Fixtures.now))
            #expect(long.isWorkingOutRows == (tick == AppState.longResortInterval), "tick \(tick)")
        }
        var short = Fixtures.state()
        for _ in 0..<3 { _ = short.reduce(.keys([.character("s")])) }
        var faster = Fixtures.mixed[1]
        faster.completed = ByteRanges([0..<1])
        _ = short.reduce(.queue(Fixtures.progress(faster, speed: 99_000_000)))
        _ = short.reduce(.tick(Fixtures.now))
        #expect(short.visible.first == faster.id)
    }

    @Test("names sort in natural order: digits by value, letters without case, ties in queue order")
    func naturalOrder() {
        let table: [(String, String, ComparisonResult)] = [
            ("file2", "file10", .orderedAscending),
            ("file10", "file2", .orderedDescending),
            ("File", "file", .orderedSame),
            ("a", "B", .orderedAscending),
            ("file007", "file7", .orderedSame),
            ("file7a", "file7b", .orderedAscending),
            ("x", "x1", .orderedAscending),
            ("数据2", "数据10", .orderedAscending),
            ("", "a", .orderedAscending),
        ]
        for (left, right, expected) in table {
            #expect(NaturalOrder.compare(left, right) == expected, "\(left) vs \(right)")
        }
        let keys = ["b10", "B2", "a", "b2"].enumerated().map {
            RowSortKey(id: gid($0.offset), name: $0.element, value: 0, position: $0.offset)
        }
        #expect(RowScan.sorted(keys, by: .name) == [2, 1, 3, 0].map(gid))
    }

    @Test("the filter ignores case, in ASCII byte by byte and beyond it by lowercasing")
    func matching() {
        let table: [(filter: String, name: String, matches: Bool)] = [
            ("iso", "debian.ISO", true),
            ("ISO", "debian.iso", true),
            ("iso", "debian.img", false),
            ("", "anything", true),
            ("isoo", "debian.iso", false),
            ("训练", "数据集-训练.tar", true),
            ("ÄB", "xäbx", true),
            ("ab", "Ä-AB", true),
        ]
        for row in table {
            let scan = RowScan(generation: 0, filter: row.filter, sort: .queue)
            #expect(scan.matches(row.name) == row.matches, "\(row.filter) in \(row.name)")
        }
    }
}
