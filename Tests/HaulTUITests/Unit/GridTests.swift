import Testing

@testable import HaulTUI

/// Display width and the cell grid: CJK and emoji take two columns, marks none; text is clipped
/// and cut in the middle, never wrapped.
@Suite("Cell grid")
struct GridTests {
    @Test("display width of ASCII, CJK, emoji, combining marks and controls")
    func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("数据集") == 6)
        #expect(DisplayWidth.of("🎉") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 2)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("\u{200B}") == 0)
    }

    @Test("middle truncation keeps the start and the extension within the width")
    func truncation() {
        let cut = DisplayWidth.middleTruncated("a-very-long-file-name.tar.gz", to: 15)
        #expect(DisplayWidth.of(cut) == 15 && cut.hasPrefix("a-very-") && cut.hasSuffix(".tar.gz") && cut.contains("…"))
        let wide = DisplayWidth.middleTruncated("数据集训练第一部分数据", to: 9)
        #expect(DisplayWidth.of(wide) <= 9 && wide.contains("…"))
        #expect(DisplayWidth.middleTruncated("short", to: 10) == "short")
        #expect(DisplayWidth.middleTruncated("x", to: 0) == "")
    }

    @Test("a wide character is never split at the edge; its second cell is a continuation")
    func wideEdges() {
        var grid = CellGrid(width: 5, height: 1)
        let end = grid.put("a数据", x: 0, y: 0, role: .row)
        #expect(end == 5 && grid.line(0) == "a数据")
        #expect(grid[2, 0].isContinuation && grid[4, 0].isContinuation)
        var narrow = CellGrid(width: 4, height: 1)
        narrow.put("ab数", x: 1, y: 0, role: .row)
        #expect(narrow.line(0) == " ab ")
    }

    @Test("the key table labels the function bar and binds every action")
    func keyTable() {
        let map = KeyMap.standard
        for action in Action.allCases {
            #expect(map.bindings.contains { $0.action == action }, "\(action)")
        }
        #expect(map.barEntries.first?.key == "?" && map.barEntries.first?.label == "Help")
        #expect(map.action(for: .character("j")) == .moveDown && map.action(for: .character(" ")) == .togglePause)
        var grid = CellGrid(width: 36, height: 1)
        BottomBarView.drawFunctionBar(map, y: 0, grid: &grid)
        // Help and Quit always; in between what fits.
        #expect(grid.line(0).hasPrefix("? Help Enter Detail p Pause q Quit"), "\(grid.line(0))")
        var narrow = CellGrid(width: 16, height: 1)
        BottomBarView.drawFunctionBar(map, y: 0, grid: &narrow)
        #expect(narrow.line(0).hasPrefix("? Help q Quit"), "\(narrow.line(0))")
    }

    @Test("the widest speed fits its column whole: 1023.6 KiB/s, then 1.0 MiB/s")
    func speedsFit() {
        let column = QueueListView.columns(width: 120).first { $0.kind == .speed }
        for speed in [1023.6 * 1024, 1_048_575, 999.9 * 1_048_576] {
            let text = ScreenRenderer.speed(speed)
            #expect(DisplayWidth.of(text) <= column?.width ?? 0, "\(text)")
        }
        #expect(ScreenRenderer.speed(1_048_575) == "1.0 MiB/s")
    }
}
