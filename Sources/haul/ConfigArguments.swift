import ArgumentParser
import Foundation
import HaulTUI

// MARK: - ConfigArguments

/// config.toml's options as command-line arguments, put before the user's so that the command
/// line wins (a later value of an option replaces an earlier one; a repeatable option, such as
/// `header`, gets both). Each setting is checked on its own, so a bad one is reported by its
/// line.
enum ConfigArguments {
    /// The arguments `config` adds for `command` (`get`, `ui` or `daemon`), or an error naming the file,
    /// the line and what is wrong. Each setting's form is the first the command line takes, so
    /// which options are flags is read from the options themselves, never kept in a list here:
    /// `name = value` is `--name=value`; `true` may be the flag `--name`; `false` may be
    /// `--no-name`, or no argument for a flag without that form. A setting only the full-screen
    /// UI takes (`headless`) is left out of `haul get`, and so on.
    static func arguments(from config: ConfigFile, path: String, command: String) throws -> [String] {
        var arguments: [String] = []
        for setting in config.settings {
            let place = "\(path)\(setting.line.map { ":\($0)" } ?? "")"
            var firstError: (any Error)?
            var taken: [String]?
            for candidate in forms(of: setting) {
                do {
                    _ = try Haul.parseAsRoot([command] + candidate)
                    taken = candidate
                    break
                } catch {
                    firstError = firstError ?? error
                }
            }
            if let taken {
                arguments += taken
                continue
            }
            // A setting another command takes (`headless` for the UI, `rpc-secret` for the
            // daemon) is left out of this one.
            if let form = forms(of: setting).first,
                commands.contains(where: { $0 != command && (try? Haul.parseAsRoot([$0] + form)) != nil })
            {
                continue
            }
            let message = firstError.map {
                Haul.message(for: $0).split(separator: "\n").first.map(String.init) ?? "\($0)"
            }
            throw ValidationError("\(place): \(setting.name): \(message ?? "not an option")")
        }
        return arguments
    }

    /// aria2's spelling of a flag, `--name=true` or `--name=false`, as this command line takes
    /// it: `--name`, or `--no-name` (or nothing, for a flag without that form).
    static func flagsSpelledAsAria2(_ arguments: [String]) -> [String] {
        let command = arguments.first.flatMap { commands.contains($0) ? $0 : nil } ?? "ui"
        return arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            let name = String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals])
            let value = argument[argument.index(after: equals)...].lowercased()
            guard value == "true" || value == "false", isFlag(name, of: command) else { return [argument] }
            if value == "true" { return ["--\(name)"] }
            return isFlag("no-\(name)", of: command) ? ["--no-\(name)"] : []
        }
    }

    /// Whether `--name` is a flag of `command`: given a value, the parser says it takes none.
    private static func isFlag(_ name: String, of command: String) -> Bool {
        do {
            _ = try Haul.parseAsRoot([command, "--\(name)=x"])
            return false
        } catch {
            return Haul.message(for: error).contains("does not take any value")
        }
    }

    /// The commands config.toml's settings go to.
    private static let commands = ["ui", "get", "daemon"]

    /// The ways a setting can be written on the command line, in the order tried.
    private static func forms(of setting: ConfigFile.Setting) -> [[String]] {
        let name = setting.name
        let valued = setting.values.map { "--\(name)=\($0)" }
        switch setting.values {
        case ["true"]: return [["--\(name)"], valued]
        case ["false"]:
            // A flag without a `--no-` form is off by leaving it out, when it is a flag at all.
            let isFlag =
                (try? Haul.parseAsRoot(["ui", "--\(name)"])) != nil
                || (try? Haul.parseAsRoot(["get", "--\(name)"])) != nil
            return [["--no-\(name)"], valued] + (isFlag ? [[]] : [])
        default: return [valued]
        }
    }

    /// The command line with config.toml's options put in: after the command's name (`get`,
    /// `ui`), else first (the default command, `ui`). Help and version requests get none.
    static func commandLine(_ given: [String], environment: [String: String]) throws -> [String] {
        let arguments = flagsSpelledAsAria2(given)
        if arguments.contains(where: {
            ["-h", "--help", "help", "--version", "--generate-completion-script"].contains($0)
        }) {
            return arguments
        }
        let path = ConfigFile.path(environment: environment)
        let config: ConfigFile
        do {
            config = try ConfigFile.load(path: path)
        } catch {
            throw ValidationError("\(error)")
        }
        guard !config.settings.isEmpty else { return arguments }
        if let first = arguments.first, commands.contains(first) {
            return [first] + (try self.arguments(from: config, path: path, command: first)) + arguments.dropFirst()
        }
        return try self.arguments(from: config, path: path, command: "ui") + arguments
    }
}
