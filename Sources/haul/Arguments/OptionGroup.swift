// MARK: - OptionGroup

/// Options shown together in help under a title (`Connections`), as a user looks for them.
struct OptionGroup<Target>: Sendable {
    let title: String
    let options: [OptionSpec<Target>]

    init(_ title: String, _ options: [OptionSpec<Target>]) {
        self.title = title
        self.options = options
    }

    /// This group as one of `Outer`'s, setting the options at `path`.
    func lifted<Outer>(_ path: WritableKeyPath<Outer, Target> & Sendable) -> OptionGroup<Outer> {
        OptionGroup<Outer>(title, options.map { $0.lifted(path) })
    }

    /// The group's spellings and help, for help, the manual and the completions.
    var infos: (title: String, options: [OptionInfo]) {
        (title, options.map(\.info))
    }
}
