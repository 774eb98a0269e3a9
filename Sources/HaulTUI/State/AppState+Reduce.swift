import HaulCore

// MARK: - Reduce

extension AppState {
    /// Applies `event` and returns what the app must do. Pure: the same state and event always
    /// give the same result.
    package mutating func reduce(_ event: AppEvent) -> [Effect] {
        switch event {
        case .keys(let keys):
            var effects: [Effect] = []
            for (index, key) in keys.enumerated() {
                // A paste into the add prompt: a newline with more to come separates URLs.
                if key == .enter, case .prompt(let prompt) = mode, prompt.kind == .add, index < keys.count - 1 {
                    effects += handle(.character(" "))
                } else {
                    effects += handle(key)
                }
            }
            refreshVisible()
            return effects
        case .queue(let change):
            apply(change)
            if case .stateChanged(let download, _) = change {
                tellOfRefusal(download)
                tellOfFailureAfterRetry(download)
            }
            return []
        case .tick(let time):
            now = time
            if let shown = message {
                message = shown.aged(by: 1)
            }
            if let last = receivedAtTick, time > last.time {
                receivedSpeed = Double(max(receivedBytes &- last.bytes, 0)) / time.timeIntervalSince(last.time)
            }
            receivedAtTick = (receivedBytes, time)
            speedHistory.append(totalSpeed)
            if speedHistory.count > AppState.historyLength {
                speedHistory.removeFirst(speedHistory.count - AppState.historyLength)
            }
            resortEachTick()
            return askForTorrentDetail()
        case .themeChanged(let name):
            themeName = name
            message = Message(text: "theme: \(name)", isError: false)
            return []
        case .notice(let text, let isError):
            message = Message(text: text, isError: isError)
            return []
        case .scheduledLimit(let status):
            let changed = schedule != nil
            globalLimit = status.limit
            schedule = status
            if changed { message = Message(text: "bandwidth schedule: \(limitSummary(.whenAndNext))", isError: false) }
            return []
        case .daemonLimit(let limit):
            globalLimit = limit
            return []
        case .scanRows:
            scanRows()
            return []
        case .rowsSorted(let result):
            showSorted(result)
            return []
        case .torrentDetail(let id, let detail):
            showTorrentDetail(detail, of: id)
            return []
        }
    }

    // MARK: - Keys

    mutating func handle(_ key: Key) -> [Effect] {
        if case .resize(let width, let height) = key {
            self.width = width
            self.height = height
            keepSelectionInView()
            return []
        }
        switch mode {
        case .help:
            handleHelp(key)
            return []
        case .prompt(var prompt):
            return edit(&prompt, key)
        case .confirm(let confirmation):
            mode = .normal
            guard key == .character("y") || key == .character("Y") else {
                message = Message(text: "nothing changed", isError: false)
                return []
            }
            switch confirmation {
            case .remove(let id, let deleteFile): return [.remove(id, deleteFile: deleteFile)]
            case .clearEnded:
                // The rows ended by now, not only those counted when asked.
                let ended = order.filter { downloads[$0]?.state.isFinal ?? false }
                say("cleared \(ended.count) ended row\(ended.count == 1 ? "" : "s")", error: false)
                return [.removeRows(ended)]
            case .quit: return [.quit]
            }
        case .normal:
            break
        }
        switch key {
        case .click(let row):
            let index = scrollTop + row - AppState.listTop
            if row >= AppState.listTop, row < AppState.listTop + listHeight, index < visible.count {
                selected = visible[index]
                keepSelectionInView()
            }
            return []
        case .wheelUp: moveSelection(by: -3); return []
        case .wheelDown: moveSelection(by: 3); return []
        case .escape where !filter.isEmpty && keyMap.action(for: key) == nil:
            // Esc takes back what hides rows, as it does in the filter's prompt.
            setFilter("")
            say("filter cleared: showing all \(order.count)", error: false)
            return []
        default: break
        }
        guard let action = keyMap.action(for: key) else { return [] }
        message = nil
        return perform(action)
    }

    /// The screen row of the first queue row.
    package static let listTop = 3

    // MARK: - Actions

    mutating func perform(_ action: Action) -> [Effect] {
        let download = selectedDownload
        switch action {
        case .moveUp: moveSelection(by: -1)
        case .moveDown: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -listHeight)
        case .pageDown: moveSelection(by: listHeight)
        case .first: moveSelection(by: -visible.count)
        case .last: moveSelection(by: visible.count)
        case .toggleDetail:
            showDetail.toggle()
            keepSelectionInView()
            return askForTorrentDetail()
        case .previousFile, .nextFile: return moveFileCursor(by: action == .nextFile ? 1 : -1)
        case .toggleFile: return toggleFile()
        case .stopSeeding: return stopSeeding()
        case .help: mode = .help
        case .togglePause:
            guard let download else { return nothing() }
            switch download.state {
            case .queued, .active: return [.pause([download.id])]
            case .paused: return [.resume([download.id])]
            default:
                say(
                    "only a queued or running download can be paused (this one is \(download.state.rawValue))",
                    error: true)
            }
        case .togglePauseAll:
            let running = order.filter { downloads[$0].map { $0.state == .queued || $0.state == .active } ?? false }
            if !running.isEmpty { return [.pause(running)] }
            let paused = order.filter { downloads[$0]?.state == .paused }
            if paused.isEmpty { return nothing() }
            return [.resume(paused)]
        case .cancel:
            guard let download else { return nothing() }
            guard [.queued, .active, .paused].contains(download.state) else {
                say(
                    "\(TextSanitizer.visible(download.shownName)) has already ended (\(download.state.rawValue))",
                    error: true)
                return []
            }
            return [.cancel(download.id)]
        case .retry:
            guard let download else { return nothing() }
            guard download.state == .failed || download.state == .cancelled else {
                say(
                    "\(TextSanitizer.visible(download.shownName)) is \(download.state.rawValue): only a failed or "
                        + "cancelled download can be retried", error: true)
                return []
            }
            retriedByHand[download.id, default: 0] += 1
            say("retrying \(TextSanitizer.visible(download.shownName))", error: false)
            return [.retry([download.id])]
        case .retryAllFailed:
            let failed = order.filter { downloads[$0]?.state == .failed }
            for id in failed { retriedByHand[id, default: 0] += 1 }
            say(
                failed.isEmpty
                    ? "no failed downloads" : "retrying \(failed.count) failed download\(failed.count == 1 ? "" : "s")",
                error: false)
            return failed.isEmpty ? [] : [.retry(failed)]
        case .add: mode = .prompt(Prompt(kind: .add))
        case .importFile: mode = .prompt(Prompt(kind: .importFile))
        case .filter: mode = .prompt(Prompt(kind: .filter, text: Array(filter), cursor: filter.count))
        case .limitSelected:
            guard let download else { return nothing() }
            mode = .prompt(Prompt(kind: .limitSelected(download.id)))
        case .limitGlobal: mode = .prompt(Prompt(kind: .limitGlobal))
        case .credentials:
            guard let download else { return nothing() }
            guard download.state != .complete else {
                say("\(TextSanitizer.visible(download.shownName)) is complete: it needs no login", error: true)
                return []
            }
            askForCredentials(download)
        case .remove, .removeWithFile:
            guard let download else { return nothing() }
            mode = .confirm(.remove(download.id, deleteFile: action == .removeWithFile))
        case .clearEnded:
            let ended = counts[.complete, default: 0] + counts[.failed, default: 0] + counts[.cancelled, default: 0]
            guard ended > 0 else {
                say("no ended rows to clear", error: false)
                return []
            }
            mode = .confirm(.clearEnded(count: ended))
        case .raise, .lower:
            guard let download else { return nothing() }
            guard sort == .queue else {
                say("sorted by \(sort.rawValue): press s until queue order to move downloads", error: true)
                return []
            }
            return [.move(download.id, action == .raise ? .up : .down)]
        case .cycleSort:
            let all = SortKey.allCases
            sort = all[((all.firstIndex(of: sort) ?? 0) + 1) % all.count]
            say("sorted by \(sort.rawValue)", error: false)
            refreshVisible(force: true)
            keepSelectionInView()
        case .cycleTheme: return [.cycleTheme]
        case .quit:
            let active = counts[.active, default: 0]
            if active > 0 {
                mode = .confirm(.quit(active: active))
                return []
            }
            return [.quit]
        }
        return []
    }

    private mutating func nothing() -> [Effect] {
        say("no download selected", error: true)
        return []
    }

    mutating func say(_ text: String, error: Bool) {
        message = Message(text: text, isError: error)
    }
}
