import ArgumentParser
import HaulNet

// MARK: - Haul

/// The `haul` command line.
@main
struct Haul: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "haul",
        abstract: "A terminal download manager: a live queue steered from the keyboard, on libcurl.",
        discussion: """
        haul with no command opens the full-screen queue (haul ui); haul get downloads without \
        it. Exit status of haul get: 0 when every download completed, 1 when any failed, 64 for \
        a usage error.
        """,
        version: "haul \(Haul.version)\n\(LibcurlVersion.description)",
        subcommands: [UICommand.self, GetCommand.self],
        defaultSubcommand: UICommand.self
    )
}
