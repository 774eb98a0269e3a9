// MARK: - CommandAbout

/// What help says of a command: its name, a line on what it does, and a longer text.
struct CommandAbout: Sendable {
    let name: String
    let abstract: String
    let discussion: String
    /// The name and help of the arguments that are not options.
    let positional: (name: String, help: String)

    /// `haul get [<options>] [<url> ...]`.
    var usage: String {
        "haul \(name) [<options>] [<\(positional.name)> ...]"
    }
}
