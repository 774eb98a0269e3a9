// MARK: - ManualPage

/// haul's manual page (`man haul`), in roff, made from the same option tables and texts as help
/// (`haul --generate-manual`, which `make install` runs).
enum ManualPage {
    static func roff(version: String, abstract: String, discussion: String, usage: [String]) -> String {
        var lines = [
            ".TH HAUL 1 \"\" \"haul \(version)\" \"User Commands\"", ".SH NAME", "haul \\- \(escaped(abstract))",
            ".SH SYNOPSIS",
        ]
        lines += usage.flatMap { [escaped($0), ".br"] }
        lines += [".SH DESCRIPTION"] + paragraphs(discussion)
        lines.append(".SH COMMANDS")
        for command in Subcommand.allCases {
            lines += [".TP", ".B \(command.rawValue)", escaped(command.about.abstract)]
            lines += paragraphs(command.about.discussion).map { $0 == ".PP" ? ".IP" : $0 }
        }
        lines.append(".SH OPTIONS")
        lines.append("Options of every command:")
        var shown = Set<String>()
        let shared = Set(QueueOptions.groups.map(\.title))
        for command in Subcommand.allCases {
            for (title, options) in command.infos {
                let fresh = options.filter { !$0.hidden && !shown.contains($0.long) }
                guard !fresh.isEmpty else { continue }
                let heading = shared.contains(title) ? title : "\(title) (haul \(command.rawValue))"
                lines.append(".SS \"\(escaped(heading))\"")
                for option in fresh {
                    lines += [".TP", escaped(option.label), escaped(option.help)]
                    shown.insert(option.long)
                }
            }
        }
        lines += [".SH FILES", escaped("$XDG_CONFIG_HOME/haul/config.toml: any option by its long name.")]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Lines of text as roff paragraphs: a blank line starts a new one, and each other line is
    /// its own line in the table that ends the exit-status text.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            if line.isEmpty { return [".PP"] }
            return line.hasPrefix(" ") ? [".br", escaped(String(line))] : [escaped(String(line))]
        }
    }

    /// Text roff prints as it is: backslashes and hyphens escaped, no line read as a request.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
