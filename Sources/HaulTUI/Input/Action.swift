// MARK: - Action

/// What a key asks for in the queue view.
package enum Action: String, CaseIterable, Sendable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case toggleDetail
    case cancel, retry, retryAllFailed, togglePause, togglePauseAll
    case add, importFile, remove, removeWithFile, clearEnded
    case raise, lower
    case filter, cycleSort
    case limitSelected, limitGlobal
    case credentials
    case previousFile, nextFile, toggleFile, stopSeeding
    case cycleTheme
    case help, quit
}
