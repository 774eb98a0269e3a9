// MARK: - Terminal

/// A screen that shows frames and reads keys; `CursesTerminal` is the real one, tests use a
/// recording double. HaulTUI draws only through this protocol and knows no curses.
///
/// **Threading:** used from one thread, the UI loop's.
package protocol Terminal: AnyObject {
    /// Columns and rows now.
    var size: (width: Int, height: Int) { get }

    /// Colours the terminal shows (0: none, or `NO_COLOR`); without them haul uses the
    /// attributes-only theme, so the selection and states stay visible.
    var colorCount: Int { get }

    /// Waits up to `timeout` milliseconds for input and returns every key available then (a paste
    /// arrives as one batch), or none.
    func readKeys(timeout: Int) -> [Key]

    /// Stages `grid`, coloured by `theme`, as the next frame; `present` shows it.
    func draw(_ grid: CellGrid, theme: Theme)

    /// Sends the staged frame to the screen (this may wait while the terminal reads).
    func present()

    /// Gives the terminal back as it was. Safe to call more than once.
    func restore()
}
