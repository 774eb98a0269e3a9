// MARK: - Role

/// What a cell shows, not how: views paint roles, and a `Theme` gives each role its colours and
/// attributes (as htop's colour schemes do).
package enum Role: String, CaseIterable, Sendable {
    case background
    case header
    case headerAccent = "header-accent"
    /// A count in the header bar that needs the user (`2 failed`): a badge on the bar, never a
    /// hole in it. A theme that leaves it out gets `error`'s colour on `header`'s background.
    case headerAlert = "header-alert"
    case graph
    case columnTitle = "column-title"
    case row
    case selectedRow = "selected-row"
    case progressDone = "progress-done"
    case progressTodo = "progress-todo"
    case queued, active, paused, complete, failed, cancelled
    case speed
    case error
    case message
    case muted
    case border
    case functionKey = "function-key"
    case functionLabel = "function-label"
    case prompt
    case detailLabel = "detail-label"
    case rangeDone = "range-done"
    case rangeTodo = "range-todo"
}
