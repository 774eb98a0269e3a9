// MARK: - OptionSpec

/// One command-line option of the options `Target`: its spelling and help, and what it sets.
/// A value is converted as it is read, so a value that does not fit is a usage error naming the
/// option, and the options hold typed values from then on.
struct OptionSpec<Target>: Sendable {
    /// What giving the option does to the options.
    enum Action: Sendable {
        /// A flag: true when given (or `=true`), false as `--no-NAME` (or `=false`).
        case flag(@Sendable (inout Target, Bool) -> Void)
        /// An option with a value; throws when the text is not one.
        case value(@Sendable (inout Target, String) throws -> Void)
    }

    let info: OptionInfo
    let action: Action

    /// A flag, `--long` (and `-short`); `inversion` adds `--no-long`.
    static func flag(
        _ long: String, short: Character? = nil, inversion: Bool = false, help: String,
        set: @escaping @Sendable (inout Target, Bool) -> Void
    ) -> OptionSpec {
        OptionSpec(
            info: OptionInfo(
                long: long, short: short, valueName: nil, help: help, inversion: inversion, repeatable: false,
                hidden: false),
            action: .flag(set))
    }

    /// An option with a value, `--long VALUE`, `--long=VALUE` (and `-s VALUE`, `-sVALUE`).
    /// `choices` are every value there is, for completion (a `bool` value's are `true` and `false`).
    static func value(
        _ long: String, short: Character? = nil, _ valueName: String, repeatable: Bool = false,
        hidden: Bool = false, choices: [String] = [], help: String,
        set: @escaping @Sendable (inout Target, String) throws -> Void
    ) -> OptionSpec {
        OptionSpec(
            info: OptionInfo(
                long: long, short: short, valueName: valueName, help: help, inversion: false, repeatable: repeatable,
                hidden: hidden, choices: valueName == "bool" && choices.isEmpty ? ["true", "false"] : choices),
            action: .value(set))
    }

    /// This option as one of `Outer`'s, setting the options at `path`.
    func lifted<Outer>(_ path: WritableKeyPath<Outer, Target> & Sendable) -> OptionSpec<Outer> {
        switch action {
        case .flag(let set):
            return OptionSpec<Outer>(info: info, action: .flag { set(&$0[keyPath: path], $1) })
        case .value(let set):
            return OptionSpec<Outer>(info: info, action: .value { try set(&$0[keyPath: path], $1) })
        }
    }
}
