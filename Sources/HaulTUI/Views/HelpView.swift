// MARK: - HelpView

/// `?`: every key of the key table with what it does, then how to leave.
enum HelpView {
    static func draw(_ state: AppState, into grid: inout CellGrid) {
        for y in 0..<grid.height { grid.fill(x: 0, y: y, count: grid.width, role: .row) }
        grid.fill(x: 0, y: 0, count: grid.width, role: .header)
        grid.put(" haul: keys", x: 0, y: 0, role: .headerAccent)
        let keyWidth = 16
        var y = 2
        for binding in state.keyMap.bindings where y < grid.height - 2 {
            grid.put(binding.keys.map(\.label).joined(separator: " "), x: 2, y: y, role: .functionKey, limit: keyWidth)
            grid.put(binding.help, x: keyWidth + 2, y: y, role: .row)
            y += 1
        }
        if y < grid.height - 1 {
            grid.put(
                "Mouse: click selects, the wheel scrolls. Any key closes this help.", x: 2, y: grid.height - 2,
                role: .muted)
        }
        BottomBarView.drawFunctionBar(state.keyMap, y: grid.height - 1, grid: &grid)
    }
}
