// MARK: - AppState: the help screen

extension AppState {
    /// One row of the help screen: the keys (on a line's first row only) and the words.
    package struct HelpRow: Equatable, Sendable {
        package let keys: String
        package let text: String
    }

    /// The columns the keys take on the help screen.
    static let helpKeyWidth = 16

    /// Every row of the help screen at this width: each key's line, wrapped beside its keys,
    /// then the mouse and how to leave.
    package var helpRows: [HelpRow] {
        let room = max(width - AppState.helpKeyWidth - 3, 10)
        var rows: [HelpRow] = []
        for binding in keyMap.bindings {
            let keys = binding.keys.map(\.label).joined(separator: " ")
            for (index, line) in ScreenRenderer.wrap(binding.help, width: room).enumerated() {
                rows.append(HelpRow(keys: index == 0 ? keys : "", text: line))
            }
        }
        rows.append(HelpRow(keys: "", text: ""))
        for line in ScreenRenderer.wrap("Mouse: click selects, the wheel scrolls.", width: room) {
            rows.append(HelpRow(keys: "", text: line))
        }
        return rows
    }

    /// The help rows a screen of this height shows at once: all but the title, a blank row,
    /// the footer and the function bar.
    package var helpPage: Int {
        max(height - 4, 1)
    }

    /// The furthest the help screen scrolls.
    var helpScrollLimit: Int {
        max(helpRows.count - helpPage, 0)
    }

    /// A key on the help screen: ↑ ↓ PgUp PgDn Home End (and j k g G, the wheel) scroll it;
    /// `?`, Esc or `q` close it; any other key does nothing, so a stray key never loses it.
    mutating func handleHelp(_ key: Key) {
        let step: Int
        switch key {
        case .character("?"), .escape, .character("q"):
            mode = .normal
            helpScroll = 0
            return
        case .down, .character("j"), .wheelDown: step = 1
        case .up, .character("k"), .wheelUp: step = -1
        case .pageDown, .character(" "): step = helpPage
        case .pageUp: step = -helpPage
        case .end, .character("G"): step = helpScrollLimit
        case .home, .character("g"): step = -helpScroll
        default: return
        }
        helpScroll = min(max(helpScroll + step, 0), helpScrollLimit)
    }
}
