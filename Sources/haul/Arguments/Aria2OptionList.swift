import HaulCore

// MARK: - Aria2OptionList

/// Every option aria2 has and what haul does with it, as a Markdown table made from the tables
/// haul reads (`Aria2OptionCatalog`, `DownloadOptionTable`, the commands' option specs):
/// `haul --generate-aria2-options`, which docs/aria2-options.md is.
enum Aria2OptionList {
    /// What haul does with aria2's option `name`.
    static func treatment(of name: String) -> String {
        if let option = DownloadOptionTable.option(named: name) {
            let builtIn = option.builtIn.map { "; haul's value: `\($0)`" } ?? ""
            return "a download's own; " + change(option.change) + builtIn
        }
        if let option = QueueOptionTable.option(named: name) {
            return "the whole queue's; " + (option.changesLive ? "changes live" : "set at start")
        }
        if Subcommand.allCases.contains(where: { $0.option(named: name) != nil }) { return "on the command line" }
        if Aria2OptionCatalog.isBitTorrent(name) { return "accepted and ignored: BitTorrent (libtorrent decides it)" }
        return "accepted and ignored, with one warning"
            + (Aria2OptionCatalog.haulsWay(instead: name).map { ": \($0)" } ?? "")
    }

    /// How a change of a download's option reaches it.
    private static func change(_ change: DownloadOption.Change) -> String {
        switch change {
        case .live: "a change applies at once"
        case .nextAttempt: "a change applies at the next attempt (an active download starts again, keeping its data)"
        case .untilNamed: "changes until the file is named"
        case .never: "names the download; never changes"
        }
    }

    /// The scope letters aria2's table gives `name`.
    private static func scope(of name: String) -> String {
        guard let scope = Aria2OptionCatalog.scope(of: name) else { return "" }
        let letters: [(Aria2OptionCatalog.Scope, String)] = [
            (.perDownload, "download"), (.changesWhileActive, "active"), (.changesWhileWaiting, "waiting"),
            (.global, "global"),
        ]
        let named = letters.filter { scope.contains($0.0) }.map(\.1)
        return named.isEmpty ? "start" : named.joined(separator: ", ")
    }

    /// The table, with a heading saying how it is made.
    static var markdown: String {
        var lines = [
            "# aria2's options in haul", "",
            "Made by `haul --generate-aria2-options` from the tables haul reads; a test checks that this file is",
            "current. *Where aria2 takes it*: a download's options (`addUri`, queue-file lines), changed on an",
            "active or a waiting download (`changeOption`), changed for the daemon (`changeGlobalOption`), or at",
            "start only. Over RPC and in queue files haul takes every name aria2 has: one it implements is set, a",
            "bad value refused; any other is accepted and ignored with one warning, as aria2 ignores an option",
            "that does not apply where it is given.", "", "| option | where aria2 takes it | in haul |",
            "|---|---|---|",
        ]
        for name in Aria2OptionCatalog.names {
            lines.append("| `\(name)` | \(scope(of: name)) | \(treatment(of: name)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
