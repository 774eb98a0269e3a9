// MARK: - HelpView

/// `?`: every key of the key table with what it does (`AppState.helpRows`), from
/// `helpScroll` on, then how to scroll and leave.
enum HelpView {
    static func draw(_ state: AppState, into grid: inout CellGrid) {
        for y in 0..<grid.height { grid.fill(x: 0, y: y, count: grid.width, role: .row) }
        grid.fill(x: 0, y: 0, count: grid.width, role: .header)
        grid.put(" haul: keys", x: 0, y: 0, role: .headerAccent)
        let rows = state.helpRows
        let shown = rows.dropFirst(state.helpScroll).prefix(state.helpPage)
        for (offset, row) in shown.enumerated() {
            let y = 2 + offset
            guard y < grid.height - 2 else { break }
            grid.put(row.keys, x: 2, y: y, role: .functionKey, limit: AppState.helpKeyWidth)
            grid.put(row.text, x: AppState.helpKeyWidth + 2, y: y, role: .row)
        }
        if grid.height >= 4 {
            let last = state.helpScroll + shown.count
            let position = rows.count > shown.count ? "rows \(state.helpScroll + 1)-\(last) of \(rows.count); " : ""
            let scroll = rows.count > shown.count ? "↑ ↓ PgUp PgDn Home End scroll; " : ""
            grid.put(" \(position)\(scroll)?, Esc or q closes this help", x: 0, y: grid.height - 2, role: .muted)
        }
        BottomBarView.drawFunctionBar(state.keyMap, y: grid.height - 1, grid: &grid)
    }
}
