// MARK: - CommandAbout

/// What help says of a command: its name, a line on what it does, and a longer text.
struct CommandAbout: Sendable {
    let name: String
    let abstract: String
    let discussion: String

    /// `haul get [<options>] [<url> ...]`: every command's arguments are the URLs to download.
    var usage: String {
        "haul \(name) [<options>] [<\(QueueOptions.positional.name)> ...]"
    }
}
