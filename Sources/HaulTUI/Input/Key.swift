// MARK: - Key

/// A key press or mouse event as the terminal reports it, independent of curses.
package enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// A mouse click on screen row `row` (from 0).
    case click(row: Int)
    case wheelUp, wheelDown
    /// The terminal changed size.
    case resize(width: Int, height: Int)

    /// How the help screen and function bar name the key.
    package var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .tab: "Tab"
        case .click: "click"
        case .wheelUp: "wheel up"
        case .wheelDown: "wheel down"
        case .resize: "resize"
        }
    }
}
