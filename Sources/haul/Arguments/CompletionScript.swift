// MARK: - CompletionScript

/// The completion script of bash, zsh or fish for haul's commands and options, made from the
/// same option tables the parser reads (`haul --generate-completion-script SHELL`).
enum CompletionScript {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, or nil for a shell haul has none for.
    static func script(for shell: String) -> String? {
        let commands = Subcommand.allCases.map { ($0.rawValue, $0.infos.flatMap(\.options).filter { !$0.hidden }) }
        switch shell {
        case "bash": return bash(commands)
        case "zsh": return zsh(commands)
        case "fish": return fish(commands)
        default: return nil
        }
    }

    private typealias Commands = [(name: String, options: [OptionInfo])]

    private static func spellings(_ option: OptionInfo) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"]
            + (option.inversion ? ["--no-\(option.long)"] : [])
    }

    private static func bash(_ commands: Commands) -> String {
        let all = commands.flatMap(\.options)
        let words = { (kind: (OptionInfo) -> Bool) in
            Set(all.filter(kind).flatMap(spellings)).sorted().joined(separator: "|")
        }
        let cases = commands.map { command in
            let options = command.options.flatMap(spellings) + ["--help"]
            return "        \(command.name)) options=\"\(options.joined(separator: " "))\" ;;"
        }
        // An option with few values completes them (`--check-certificate <TAB>`: true false).
        var byChoices: [[String]: [String]] = [:]
        for option in all where !option.choices.isEmpty {
            byChoices[option.choices, default: []] += spellings(option)
        }
        let choiceCases = byChoices.sorted { $0.key.joined() < $1.key.joined() }.map { choices, names in
            "        \(Set(names).sorted().joined(separator: "|"))) "
                + "COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;"
        }
        return """
            _haul() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command=ui options
                case "${COMP_WORDS[1]}" in ui|get|daemon) command="${COMP_WORDS[1]}" ;; esac
                case "$prev" in
                    \(words { $0.valueName == "dir" })) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                    \(words { $0.valueName == "file" })) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            \(choiceCases.joined(separator: "\n"))
                    \(words { !$0.isFlag && !$0.takesPath && $0.choices.isEmpty })) COMPREPLY=(); return ;;
                esac
                case "$command" in
            \(cases.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "ui get daemon help" -- "$cur"))
                fi
            }
            complete -o default -F _haul haul

            """
    }

    private static func zsh(_ commands: Commands) -> String {
        let cases = commands.map { command in
            let specs = command.options.flatMap { option in
                spellings(option).map { "'\(zshSpec($0, option))'" }
            }
            return "        \(command.name)) options=(\n            "
                + specs.joined(separator: "\n            ") + "\n        ) ;;"
        }
        let described = Subcommand.allCases.map { "'\($0.rawValue):\(zshText($0.about.abstract))'" }
        return """
            #compdef haul

            _haul() {
                local command=ui
                local -a options commands
                commands=(\(described.joined(separator: " ")))
                case $words[2] in ui|get|daemon) command=$words[2] ;; esac
                case $command in
            \(cases.joined(separator: "\n"))
                esac
                if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
                    _describe 'command' commands
                fi
                _arguments -s : $options '*:url: '
            }

            _haul "$@"

            """
    }

    /// `--dir=[Directory to save into]:dir:_files -/`, as zsh's `_arguments` reads it.
    private static func zshSpec(_ spelling: String, _ option: OptionInfo) -> String {
        let help = "[\(zshText(option.help))]"
        guard let valueName = option.valueName, !spelling.hasPrefix("--no-") else { return spelling + help }
        let choices = "(\(option.choices.joined(separator: " ")))"
        let action =
            option.valueName == "dir"
            ? "_files -/" : option.valueName == "file" ? "_files" : option.choices.isEmpty ? " " : choices
        let joiner = spelling.hasPrefix("--") ? "=" : "+"
        return "\(spelling)\(joiner)\(help):\(valueName):\(action)"
    }

    /// Help text safe inside a zsh spec in single quotes.
    private static func zshText(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
    }

    private static func fish(_ commands: Commands) -> String {
        var lines = ["complete -c haul -f"]
        for command in Subcommand.allCases {
            let about = fishText(command.about.abstract)
            lines.append("complete -c haul -n __fish_use_subcommand -a \(command.rawValue) -d \(about)")
        }
        for (name, options) in commands {
            let others = Subcommand.allCases.map(\.rawValue).filter { $0 != name }.joined(separator: " ")
            let condition =
                name == Subcommand.ui.rawValue
                ? "'not __fish_seen_subcommand_from \(others)'" : "'__fish_seen_subcommand_from \(name)'"
            for option in options {
                var line = "complete -c haul -n \(condition) -l \(option.long)"
                if let short = option.short { line += " -s \(short)" }
                if !option.isFlag { line += option.takesPath ? " -r -F" : " -r" }
                if !option.choices.isEmpty { line += " -a \(fishText(option.choices.joined(separator: " ")))" }
                lines.append(line + " -d \(fishText(option.help))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text in single quotes, as fish reads it.
    private static func fishText(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
