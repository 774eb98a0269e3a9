// MARK: - OptionInfo

/// How one command-line option is spelled and what its help says: what the parser matches, and
/// what help, the manual page and the shell completions show.
struct OptionInfo: Sendable {
    /// The long name, without `--`.
    let long: String
    /// The one-letter name, without `-`.
    let short: Character?
    /// The value's placeholder (`n`, `file`), or nil for a flag.
    let valueName: String?
    let help: String
    /// A flag that `--no-NAME` turns off.
    let inversion: Bool
    /// Given again, the option adds a value rather than replacing the last.
    let repeatable: Bool
    /// Left out of help, the manual and completions (options for tests).
    let hidden: Bool
    /// Every value there is, when there are few (`true`, `false`; the themes), for completion.
    var choices: [String] = []

    var isFlag: Bool { valueName == nil }

    /// How help and errors name the option: `-j, --max-concurrent-downloads <n>`.
    var label: String {
        let names = (short.map { "-\($0), " } ?? "") + "--\(long)"
        guard let valueName else { return inversion ? "--\(long), --no-\(long)" : names }
        return "\(names) <\(valueName)>"
    }

    /// Whether the value names a file or directory, for the shells' completion.
    var takesPath: Bool {
        valueName == "file" || valueName == "dir"
    }
}
