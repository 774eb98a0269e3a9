import CNcurses
import Foundation
import HaulTUI

// MARK: - CursesTerminal

/// The terminal through ncursesw: a UTF-8 locale (C.UTF-8 when the environment has none),
/// wide and combining characters, colour pairs made on demand from a theme's colours mapped
/// to what the terminal has, mouse clicks and wheel, resize. Colour is off with `NO_COLOR` or a
/// terminal without it; the theme's attributes remain.
///
/// **Threading:** one thread (the UI loop's) uses it.
package final class CursesTerminal: Terminal {
    /// Why the full-screen UI cannot start.
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var restored = false
    /// Colours the terminal can show (0 when colour is off).
    package let colorCount: Int
    private var pairs: [PairKey: Int16] = [:]
    /// The frame on screen and the theme it was drawn in: unchanged cells are not put again.
    private var shown: (grid: CellGrid, theme: Theme)?
    /// Each role's attributes and pair in the theme on screen.
    private var looks: [Role: (UInt32, Int16)] = [:]

    private struct PairKey: Hashable {
        let foreground: Int
        let background: Int
    }

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(StartError) {
        if setlocale(LC_ALL, "").map({ String(cString: $0).uppercased() })?.contains("UTF-8") != true {
            setlocale(LC_ALL, "C.UTF-8")
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw StartError(description: "the full-screen UI needs a terminal; use haul get to download without it")
        }
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r"),
            let screen = newterm(nil, output, input)
        else {
            throw StartError(
                description: "cannot start the full-screen UI on TERM=\(environment["TERM"] ?? "(unset)"); "
                    + "set TERM to your terminal's type, or use haul get")
        }
        guard haul_can_address_cursor() != 0 else {
            endwin()
            delscreen(screen)
            throw StartError(
                description: "this terminal (TERM=\(environment["TERM"] ?? "(unset)")) cannot move the cursor, "
                    + "so it cannot draw the full-screen queue")
        }
        self.screen = screen
        window = haul_stdscr()
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        curs_set(0)
        set_escdelay(25)
        haul_enable_mouse()
        if has_colors(), environment["NO_COLOR"].map({ $0.isEmpty }) ?? true {
            start_color()
            use_default_colors()
            colorCount = Int(haul_colors())
        } else {
            colorCount = 0
        }
    }

    deinit {
        restore()
        delscreen(screen)
    }

    // MARK: - Terminal

    package var size: (width: Int, height: Int) {
        (Int(haul_getmaxx(window)), Int(haul_getmaxy(window)))
    }

    package func readKeys(timeout: Int) -> [Key] {
        var keys: [Key] = []
        wtimeout(window, Int32(timeout))
        while let key = readKey() {
            keys.append(key)
            wtimeout(window, 0)
        }
        return keys
    }

    package func draw(_ grid: CellGrid, theme: Theme) {
        // A new size or theme repaints every cell; otherwise only the cells that changed.
        let previous = shown.flatMap {
            $0.theme == theme && $0.grid.width == grid.width && $0.grid.height == grid.height ? $0.grid : nil
        }
        if previous == nil { looks.removeAll() }
        var text = [wchar_t](repeating: 0, count: 8)
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                let cell = grid[x, y]
                if cell.isContinuation || previous?[x, y] == cell { continue }
                let (attributes, pair) = look(of: cell.role, theme: theme)
                var count = 0
                for scalar in cell.character.unicodeScalars where count < text.count - 1 {
                    text[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                text[count] = 0
                _ = haul_put_cell(window, Int32(y), Int32(x), text, attributes, pair)
            }
        }
        shown = (grid, theme)
    }

    package func present() {
        wrefresh(window)
    }

    package func restore() {
        guard !restored else { return }
        restored = true
        endwin()
    }

    // MARK: - Keys

    private func readKey() -> Key? {
        var character: wint_t = 0
        let result = wget_wch(window, &character)
        if result == ERR { return nil }
        if result == haul_key_code_yes {
            switch Int32(character) {
            case haul_key_up: return .up
            case haul_key_down: return .down
            case haul_key_left: return .left
            case haul_key_right: return .right
            case haul_key_ppage: return .pageUp
            case haul_key_npage: return .pageDown
            case haul_key_home: return .home
            case haul_key_end: return .end
            case haul_key_backspace: return .backspace
            case haul_key_dc: return .delete
            case haul_key_enter: return .enter
            case haul_key_resize:
                shown = nil  // curses may have lost cells: repaint them all
                let (width, height) = size
                return .resize(width: width, height: height)
            case haul_key_mouse:
                var row: Int32 = 0
                switch haul_read_mouse(&row) {
                case 1: return .click(row: Int(row))
                case 2: return .wheelUp
                case 3: return .wheelDown
                default: return readKey()
                }
            default: return readKey()
            }
        }
        switch character {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        default:
            guard let scalar = Unicode.Scalar(UInt32(character)) else { return readKey() }
            return .character(Character(scalar))
        }
    }

    // MARK: - Colours

    /// The attributes and colour pair of `role` in `theme`, as this terminal can show them.
    private func look(of role: Role, theme: Theme) -> (UInt32, Int16) {
        if let known = looks[role] { return known }
        let look = computeLook(of: role, theme: theme)
        looks[role] = look
        return look
    }

    private func computeLook(of role: Role, theme: Theme) -> (UInt32, Int16) {
        let style = theme.style(role)
        var attributes = haul_a_normal
        if style.bold { attributes |= haul_a_bold }
        if style.dim { attributes |= haul_a_dim }
        if style.reverse { attributes |= haul_a_reverse }
        if style.underline { attributes |= haul_a_underline }
        guard colorCount > 0 else { return (attributes, 0) }
        let key = PairKey(
            foreground: style.foreground.index(forTerminalColors: colorCount),
            background: style.background.index(forTerminalColors: colorCount))
        if key.foreground < 0, key.background < 0 { return (attributes, 0) }
        if let pair = pairs[key] { return (attributes, pair) }
        let next = pairs.count + 1
        guard next < min(Int(haul_color_pairs()), Int(Int16.max)) else { return (attributes, 0) }
        init_pair(Int16(next), Int16(key.foreground), Int16(key.background))
        pairs[key] = Int16(next)
        return (attributes, Int16(next))
    }
}
