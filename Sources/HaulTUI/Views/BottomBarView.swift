import HaulCore

// MARK: - BottomBarView

/// The last two rows: the message line (a prompt with its cursor, a question, or the latest
/// message) and the function bar built from the key table.
enum BottomBarView {
    static func draw(_ state: AppState, into grid: inout CellGrid) {
        let messageRow = grid.height - 2
        grid.fill(x: 0, y: messageRow, count: grid.width, role: .row)
        switch state.mode {
        case .prompt(let prompt):
            drawPrompt(prompt, y: messageRow, grid: &grid)
        case .confirm(let confirmation):
            grid.put(question(confirmation, state: state), x: 0, y: messageRow, role: .prompt)
        case .normal, .help:
            if let message = state.message {
                grid.put(
                    TextSanitizer.visible(message.text), x: 0, y: messageRow, role: message.isError ? .error : .message)
            } else if let waiting = heldBack(state) {
                grid.put(waiting, x: 0, y: messageRow, role: .muted)
            } else if state.sort != .queue || !state.filter.isEmpty {
                var note = "sorted by \(state.sort.rawValue)"
                if !state.filter.isEmpty {
                    note +=
                        ", filter '\(TextSanitizer.visible(state.filter))': "
                        + "\(state.visible.count) of \(state.order.count) shown (Esc clears it)"
                }
                grid.put(note, x: 0, y: messageRow, role: .muted)
            }
        }
        drawFunctionBar(state.keyMap, y: grid.height - 1, grid: &grid)
    }

    /// Why the selected queued download has not started: every slot is taken.
    static func heldBack(_ state: AppState) -> String? {
        guard let download = state.selectedDownload, download.state == .queued, download.nextAttemptAt == nil,
            state.counts[.active, default: 0] >= state.maxConcurrentDownloads
        else { return nil }
        let active = state.counts[.active, default: 0]
        let streams =
            active > state.maxConcurrentDownloads
            ? ", and \(active - state.maxConcurrentDownloads) more as HTTP/2 streams" : ""
        return "\(AppState.name(of: download)) waits for a free slot: \(min(active, state.maxConcurrentDownloads)) of "
            + "\(state.maxConcurrentDownloads) downloads run (-j)\(streams)"
    }

    private static func question(_ confirmation: AppState.Confirmation, state: AppState) -> String {
        switch confirmation {
        case .remove(let id, let deleteFile):
            let name = TextSanitizer.visible(AppState.name(of: state.downloads[id]))
            return deleteFile
                ? "Remove \(name) and delete its file? (y/n)" : "Remove \(name) from the queue? The file stays. (y/n)"
        case .clearEnded(let count):
            return "Clear \(count) ended row\(count == 1 ? "" : "s") (done, failed, cancelled)? Files stay. (y/n)"
        case .quit(let active):
            let after =
                state.queueOutlivesScreen
                ? "Quit? The daemon goes on with \(active == 1 ? "it" : "them")."
                : "Quit? The queue is saved and continues next time."
            return "\(active) download\(active == 1 ? " is" : "s are") running. \(after) (y/n)"
        }
    }

    /// `Title: text` with the cursor shown reversed; long text scrolls to keep the cursor in view.
    /// A label longer than half the row is wrapped onto the rows above, and the text gets the
    /// whole row: the label is never cut, nor the text drawn over it.
    private static func drawPrompt(_ prompt: AppState.Prompt, y: Int, grid: inout CellGrid) {
        let x: Int
        if DisplayWidth.of(prompt.title + ": ") <= grid.width / 2 {
            x = grid.put(prompt.title + ": ", x: 0, y: y, role: .prompt)
        } else {
            let lines = ScreenRenderer.wrap(prompt.title + ":", width: grid.width)
            for (index, line) in lines.enumerated() where y - lines.count + index >= 0 {
                let row = y - lines.count + index
                grid.fill(x: 0, y: row, count: grid.width, role: .prompt)
                grid.put(line, x: 0, y: row, role: .prompt)
            }
            x = grid.put("> ", x: 0, y: y, role: .prompt)
        }
        let room = grid.width - x - 1
        guard room > 0 else { return }
        var start = 0
        let text = prompt.shown
        while DisplayWidth.of(String(text[start..<prompt.cursor])) >= room { start += 1 }
        var column = x
        for index in start...text.count {
            let character = index < text.count ? text[index] : " "
            let shown = TextSanitizer.visible(String(character))
            guard column + DisplayWidth.of(shown) <= grid.width else { break }
            column = grid.put(shown, x: column, y: y, role: index == prompt.cursor ? .selectedRow : .row)
        }
    }

    /// `? Help  Enter Detail … q Quit`: each key in the key role, its word in the label role.
    /// Help (the first) and Quit (the last) always show; the others in between while they fit.
    static func drawFunctionBar(_ keyMap: KeyMap, y: Int, grid: inout CellGrid) {
        grid.fill(x: 0, y: y, count: grid.width, role: .functionLabel)
        let entries = keyMap.barEntries.map { (key: $0.key + " ", label: $0.label + " ") }
        guard let first = entries.first, let last = entries.last else { return }
        let width = { (entry: (key: String, label: String)) in DisplayWidth.of(entry.key) + DisplayWidth.of(entry.label)
        }
        var room = grid.width - width(first) - (entries.count > 1 ? width(last) : 0)
        var shown = [first]
        for entry in entries.dropFirst().dropLast() {
            guard width(entry) <= room else { break }
            room -= width(entry)
            shown.append(entry)
        }
        if entries.count > 1 { shown.append(last) }
        var x = 0
        for entry in shown {
            x = grid.put(entry.key, x: x, y: y, role: .functionKey)
            x = grid.put(entry.label, x: x, y: y, role: .functionLabel)
        }
    }
}
