import HaulTUI

// MARK: - HelpText

/// Help as haul prints it: an overview, the usage, then each group of options with its help
/// wrapped beside it, 80 columns wide.
enum HelpText {
    /// The options every command takes, said last.
    static let standardOptions = [
        OptionInfo(
            long: "version", short: nil, valueName: nil, help: "Show the version.", inversion: false, repeatable: false,
            hidden: false),
        OptionInfo(
            long: "help", short: "h", valueName: nil, help: "Show help information.", inversion: false,
            repeatable: false, hidden: false),
    ]

    /// The title of a command's own options, which help lists under OPTIONS with `--help`.
    static let ownOptionsTitle = "Options"

    /// `haul NAME --help`.
    static func command(_ about: CommandAbout, groups: [(title: String, options: [OptionInfo])]) -> String {
        var sections = [
            paragraph("OVERVIEW: \(about.abstract)"), paragraph(about.discussion), "USAGE: \(about.usage)",
            "ARGUMENTS:\n" + row("<\(QueueOptions.positional.name)>", QueueOptions.positional.help),
        ]
        var own: [OptionInfo] = []
        for (title, options) in groups {
            guard title != ownOptionsTitle else {
                own = options
                continue
            }
            sections.append(section(title.uppercased(), options))
        }
        sections.append(section("OPTIONS", own + standardOptions))
        return sections.joined(separator: "\n\n")
    }

    /// `haul --help`: the usages first, the overview, then the commands.
    static func root(
        usage: [String], abstract: String, discussion: String, commands: [(name: String, abstract: String)]
    ) -> String {
        let usage = usage.enumerated().map { ($0.offset == 0 ? "USAGE: " : "       ") + $0.element }
        return [
            usage.joined(separator: "\n"), "See haul get --help for every option, grouped by task.",
            paragraph("OVERVIEW: \(abstract)"), paragraph(discussion), section("OPTIONS", standardOptions),
            "SUBCOMMANDS:\n" + commands.map { row($0.name, $0.abstract) }.joined(separator: "\n"),
            "  See 'haul help <subcommand>' for detailed help.",
        ].joined(separator: "\n\n")
    }

    /// A usage error as haul prints it: the error, the command's usage and where its help is.
    static func usageError(_ error: UsageError, usage: String, helpCommand: String) -> String {
        "Error: \(error.message)\nUsage: \(usage)\n  See '\(helpCommand) --help' for more information."
    }

    /// A titled list of options, hidden ones left out.
    private static func section(_ title: String, _ options: [OptionInfo]) -> String {
        "\(title):\n" + options.filter { !$0.hidden }.map { row($0.label, $0.help) }.joined(separator: "\n")
    }

    /// The column help starts in.
    private static let helpColumn = 26
    private static let width = 80

    /// `  label   help…`, the help wrapped in its column; a label too long for its column goes on a
    /// line of its own.
    static func row(_ label: String, _ help: String) -> String {
        let lines = wrap(help, width: width - 1 - helpColumn)
        let indent = String(repeating: " ", count: helpColumn)
        let first = "  \(label)"
        let body = lines.map { indent + $0 }
        guard first.count < helpColumn, let line = lines.first else { return ([first] + body).joined(separator: "\n") }
        let padded = first + String(repeating: " ", count: helpColumn - first.count) + line
        return ([padded] + body.dropFirst()).joined(separator: "\n")
    }

    /// `text` wrapped to the width, each of its own lines on its own.
    static func paragraph(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { $0.isEmpty ? [""] : wrap(String($0), width: width - 1) }
            .joined(separator: "\n")
    }

    /// `text` in lines of at most `width` columns (`ScreenRenderer.wrap`); a text that fits is
    /// left as it is, its spaces kept (the exit codes' table).
    static func wrap(_ text: String, width: Int) -> [String] {
        text.count > width ? ScreenRenderer.wrap(text, width: width) : [text]
    }
}
