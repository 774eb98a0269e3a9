// MARK: - Subcommand

/// haul's commands by name: what `haul NAME` runs, and `ui` when no name is given.
enum Subcommand: String, CaseIterable, Sendable {
    case ui, get, daemon

    /// The command's type.
    var type: any HaulCommand.Type {
        switch self {
        case .ui: UICommand.self
        case .get: GetCommand.self
        case .daemon: DaemonCommand.self
        }
    }

    var about: CommandAbout { type.about }

    /// The command's option groups, for help, the manual, completions and config.toml.
    var infos: [(title: String, options: [OptionInfo])] { type.infos }

    /// The option `--name` of this command, if it has one.
    func option(named name: String) -> OptionInfo? {
        infos.lazy.flatMap(\.options).first { $0.long == name }
    }

    /// Reads `arguments` as this command's and validates them, throwing what is wrong, without
    /// running anything.
    func check(_ arguments: [String]) throws {
        try type.parse(arguments).validate()
    }

    /// Reads `arguments` as this command's, validates them and runs the command.
    func run(_ arguments: [String]) throws {
        let command = try type.parse(arguments)
        try command.validate()
        try command.run()
    }

    /// The help text of the command.
    var help: String {
        HelpText.command(about, groups: infos)
    }
}
