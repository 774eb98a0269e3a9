// MARK: - UsageError

/// A command line (or config.toml setting) haul cannot run: an unknown option, a value that does
/// not fit, options that do not go together. haul prints it with the command's usage and exits
/// 28, aria2's code for a bad option.
struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, naming the option or argument.
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
