// MARK: - KeyMap

/// The one table of keys: it maps keys to actions, labels the function bar, and lists every
/// key on the help screen (as htop's does), so the three never disagree.
package struct KeyMap: Sendable {
    package struct Binding: Sendable {
        package let keys: [Key]
        package let action: Action
        /// The function bar's word for it; nil keeps it off the bar.
        package let barLabel: String?
        /// The help screen's line.
        package let help: String
    }

    package let bindings: [Binding]
    private let actions: [Key: Action]

    package init(bindings: [Binding]) {
        self.bindings = bindings
        var actions: [Key: Action] = [:]
        for binding in bindings {
            for key in binding.keys { actions[key] = binding.action }
        }
        self.actions = actions
    }

    package func action(for key: Key) -> Action? {
        actions[key]
    }

    /// The function bar's entries: (key label, word), in table order.
    package var barEntries: [(key: String, label: String)] {
        bindings.compactMap { binding in binding.barLabel.map { (binding.keys[0].label, $0) } }
    }

    /// haul's keys.
    package static let standard = KeyMap(bindings: [
        Binding(keys: [.character("?")], action: .help, barLabel: "Help", help: "show or hide this help"),
        Binding(keys: [.up, .character("k")], action: .moveUp, barLabel: nil, help: "select the download above"),
        Binding(keys: [.down, .character("j")], action: .moveDown, barLabel: nil, help: "select the download below"),
        Binding(keys: [.pageUp], action: .pageUp, barLabel: nil, help: "one screen up"),
        Binding(keys: [.pageDown], action: .pageDown, barLabel: nil, help: "one screen down"),
        Binding(keys: [.home, .character("g")], action: .first, barLabel: nil, help: "the first download"),
        Binding(keys: [.end, .character("G")], action: .last, barLabel: nil, help: "the last download"),
        Binding(
            keys: [.enter], action: .toggleDetail, barLabel: "Detail",
            help: "show or hide the selected download's details"),
        Binding(
            keys: [.character("p"), .character(" ")], action: .togglePause, barLabel: "Pause",
            help: "pause or resume the selected download"),
        Binding(
            keys: [.character("P")], action: .togglePauseAll, barLabel: nil,
            help: "pause all, or resume all when all are paused"),
        Binding(
            keys: [.character("c")], action: .cancel, barLabel: "Cancel",
            help: "cancel the selected download (its data is kept)"),
        Binding(
            keys: [.character("r")], action: .retry, barLabel: "Retry",
            help: "retry a failed or cancelled download from where it stopped"),
        Binding(keys: [.character("R")], action: .retryAllFailed, barLabel: nil, help: "retry every failed download"),
        Binding(
            keys: [.character("a")], action: .add, barLabel: "Add", help: "add URLs (paste several to add several)"),
        Binding(
            keys: [.character("i")], action: .importFile, barLabel: "Import",
            help: "import a queue file (aria2 or URL list) from a path or a URL"),
        Binding(
            keys: [.character("d")], action: .remove, barLabel: "Remove",
            help: "remove the selected download from the queue (asks)"),
        Binding(
            keys: [.character("D")], action: .removeWithFile, barLabel: nil,
            help: "remove it and delete its file (asks)"),
        Binding(
            keys: [.character("C")], action: .clearEnded, barLabel: nil,
            help: "clear every ended row: done, failed and cancelled (asks; files stay)"),
        Binding(
            keys: [.character("+")], action: .raise, barLabel: nil, help: "move the selected download up the queue"),
        Binding(
            keys: [.character("-")], action: .lower, barLabel: nil, help: "move the selected download down the queue"),
        Binding(
            keys: [.character("/")], action: .filter, barLabel: "Filter",
            help: "show only downloads whose name contains a text"),
        Binding(
            keys: [.character("s")], action: .cycleSort, barLabel: "Sort",
            help: "sort by queue order, name, progress, speed, size"),
        Binding(
            keys: [.character("l")], action: .limitSelected, barLabel: nil,
            help: "set the selected download's speed limit"),
        Binding(keys: [.character("L")], action: .limitGlobal, barLabel: "Limit", help: "set the global speed limit"),
        Binding(
            keys: [.character("u")], action: .credentials, barLabel: nil,
            help: "give the selected download a user name and password, and retry it"),
        Binding(
            keys: [.character("]")], action: .nextFile, barLabel: nil,
            help: "a torrent's next file in its detail pane (opens the pane)"),
        Binding(keys: [.character("[")], action: .previousFile, barLabel: nil, help: "a torrent's previous file"),
        Binding(
            keys: [.character("f")], action: .toggleFile, barLabel: nil,
            help: "download or skip that file of the torrent (its select-file)"),
        Binding(
            keys: [.character("S")], action: .stopSeeding, barLabel: nil,
            help: "stop seeding the selected torrent: it is done"),
        Binding(keys: [.character("t")], action: .cycleTheme, barLabel: "Theme", help: "next colour theme"),
        Binding(
            keys: [.character("q")], action: .quit, barLabel: "Quit",
            help: "quit (asks while downloads run; the queue is saved)"),
    ])
}
