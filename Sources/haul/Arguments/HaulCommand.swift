// MARK: - HaulCommand

/// One of haul's commands (`ui`, `get`, `daemon`): its options as a table, read by
/// `ArgumentScanner` into a value of the command, then checked and run.
protocol HaulCommand {
    /// What help and the manual say of the command.
    static var about: CommandAbout { get }
    /// The command's options, grouped as help shows them.
    static var groups: [OptionGroup<Self>] { get }
    /// What to download and how: the options every command shares; the URLs are its arguments.
    var options: QueueOptions { get set }

    /// The command with every option at its default.
    init()
    /// Options that do not go together, or a value that only the whole command line can judge.
    func validate() throws
    /// Runs the command on the calling (main) thread; returns when it is done.
    func run() throws
}

extension HaulCommand {
    /// The command `arguments` ask for, not yet validated.
    static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        var command = Self()
        try ArgumentScanner(options: groups.flatMap(\.options), positional: { $0.options.urls.append($1) })
            .scan(arguments, into: &command)
        return command
    }

    /// The queue's option groups as this command's.
    static var queueGroups: [OptionGroup<Self>] {
        QueueOptions.groups.map { $0.lifted(\Self.options) }
    }

    /// The groups' spellings and help, for help, the manual, completions and config.toml.
    static var infos: [(title: String, options: [OptionInfo])] {
        groups.map(\.infos)
    }
}
