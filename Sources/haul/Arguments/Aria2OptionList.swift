import HaulCore

// MARK: - Aria2OptionList

/// Every option aria2 has and what haul does with it, as a Markdown table made from the tables
/// haul reads (`Aria2OptionCatalog`, `DownloadOptions`, the commands' option specs):
/// `haul --generate-aria2-options`, which docs/aria2-options.md is.
enum Aria2OptionList {
    /// What haul does with aria2's option `name`.
    static func treatment(of name: String) -> String {
        if isDownloadOption(name) {
            return name == "max-download-limit" ? "a download's own; changes live" : "a download's own"
        }
        switch name {
        case "max-concurrent-downloads", "max-overall-download-limit": return "the whole queue's; changes live"
        default: break
        }
        if Subcommand.allCases.contains(where: { $0.option(named: name) != nil }) { return "on the command line" }
        return Aria2OptionCatalog.isBitTorrent(name)
            ? "accepted and ignored: BitTorrent" : "accepted and ignored, with one warning"
    }

    /// Whether haul keeps `name` with each download (`DownloadOptions` knows the name).
    private static func isDownloadOption(_ name: String) -> Bool {
        var options = DownloadOptions()
        do {
            try options.set(name, "")
            return true
        } catch {
            return !error.isUnknownOption
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
