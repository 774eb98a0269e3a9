import Foundation
import HaulCore

// MARK: - OptionSpec: download options

/// The command line's download options, made from `DownloadOptionTable`: each sets the run's
/// download defaults by the rules a queue file's line follows, so a value that does not fit is a
/// usage error naming the option, and the options then merge as values.
extension OptionSpec where Target == DownloadOptions {
    /// The command-line options under `topic` in help, in the table's order.
    static func downloads(_ topic: DownloadOption.Topic) -> [OptionSpec] {
        DownloadOptionTable.all.compactMap { option in
            guard let commandLine = option.commandLine, commandLine.topic == topic else { return nil }
            return download(option, commandLine)
        }
    }

    /// `option` on the command line: a boolean that is off unless given is a flag (`--dry-run`,
    /// `--dry-run=false`); one that is on takes `true` or `false`, as aria2's do.
    private static func download(_ option: DownloadOption, _ commandLine: DownloadOption.CommandLine) -> OptionSpec {
        let name = option.name
        if option.isBoolean, option.builtIn != "true" {
            return .flag(name, short: commandLine.short, help: option.help) { options, on in
                // A boolean's own text always reads back.
                try? options.set(name, String(on))
            }
        }
        let help = option.help + (option.builtInShown.map { " Default: \($0)." } ?? "")
        return .value(
            name, short: commandLine.short, commandLine.valueName, repeatable: option.isRepeatable,
            choices: commandLine.choices, help: help
        ) { options, text in
            // A file named on the command line is kept as a full path: a download continued
            // later, from another directory, still finds it.
            let value = commandLine.valueName == "file" ? absolutePath(text) : text
            do {
                try options.set(name, value)
            } catch {
                throw UsageError("\(error)\(hint(for: name, text))")
            }
        }
    }

    /// `path` from the current directory, unless it is one already (or empty, refused as such).
    private static func absolutePath(_ path: String) -> String {
        let expanded = XDGDirectory.expandingTilde(path)
        guard !expanded.isEmpty, !expanded.hasPrefix("/") else { return expanded }
        return FileManager.default.currentDirectoryPath + "/" + expanded
    }

    /// What a curl user meant: curl's `-k` turns certificate checks off; here, as in aria2, it
    /// is a size.
    private static func hint(for name: String, _ text: String) -> String {
        guard name == DownloadOptionTable.Name.minSplitSize, text.contains("://") else { return "" }
        return " (-k is --\(name) here, as in aria2; curl's -k is --check-certificate=false, or --insecure)"
    }
}
