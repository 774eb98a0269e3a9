import HaulCore

// MARK: - OptionSourceList

/// Who may set each download option, as a Markdown section made from the option table's
/// `settableBy` column: `haul --generate-option-sources`, which docs/safety.md carries between
/// its markers.
enum OptionSourceList {
    /// The line before the section in docs/safety.md, and the one after it.
    static let markers = (
        start: "<!-- made by haul --generate-option-sources: a test checks that it is current -->",
        end: "<!-- end of haul --generate-option-sources -->"
    )

    /// The section: the sources, then each option that can do harm with who may set it.
    static var markdown: String {
        var lines = [
            "### Who may set an option",
            "",
            "Each option says the least trusted source that may set it (the option table's `settableBy`); every "
                + "source above it may too, and any source may give an option's built-in value, which grants "
                + "nothing. Options not listed (split, limits, retries, headers and logins a source gives for its "
                + "own downloads…) any source may set. A refused option is named with its line (a queue file: a "
                + "warning, as aria2's saved sessions carry such options; a list loaded by URL: an error) or in "
                + "the RPC error.",
            "",
            "| source, most trusted first | where its options come from |",
            "|---|---|",
        ]
        lines += OptionSource.allCases.map { "| \($0) | \($0.places) |" }
        lines += [
            "",
            "| option | what it can do | " + OptionSource.allCases.map(\.description).joined(separator: " | ")
                + " | why the sources marked may |",
            "|---|---|" + String(repeating: ":-:|", count: OptionSource.allCases.count) + "---|",
        ]
        for option in DownloadOptionTable.all {
            guard let risk = option.risk else { continue }
            let marks = OptionSource.allCases.map { $0 <= option.settableBy ? "yes" : "no" }
            lines.append(
                "| `\(option.name)` | \(risk.rawValue) | " + marks.joined(separator: " | ") + " | "
                    + (option.trustReason ?? "") + " |")
        }
        lines += [
            "",
            "The queue's own options (`QueueOptionTable`) are set on the command line or in config.toml, and "
                + "changed while the queue runs by `aria2.changeGlobalOption` where they change live; a queue file "
                + "or a list loaded by URL holds downloads, never these.",
            "",
            "| queue option | changes while the queue runs | "
                + OptionSource.allCases.map(\.description).joined(separator: " | ") + " |",
            "|---|:-:|" + String(repeating: ":-:|", count: OptionSource.allCases.count),
        ]
        for option in QueueOptionTable.all {
            let marks = OptionSource.allCases.map { source in
                source != .queueFile && source != .remoteList && source <= option.settableBy ? "yes" : "no"
            }
            lines.append(
                "| `\(option.name)` | \(option.changesLive ? "yes" : "no") | " + marks.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "A download a network client or a list loaded by URL adds carries only the credentials its source "
                + "gave: no netrc login, none of your SSH keys or agent, none of the secret headers, users and "
                + "passwords given on the command line or in config.toml. A network client that changes the "
                + "URIs of your download (`aria2.changeUri`) takes its credentials away with it.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
