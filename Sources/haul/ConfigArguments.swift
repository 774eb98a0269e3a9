import ArgumentParser
import Foundation
import HaulTUI

// MARK: - ConfigArguments

/// config.toml's options as command-line arguments, put before the user's so that the command
/// line wins (a later value of an option replaces an earlier one; a repeatable option, such as
/// `header`, gets both). Each setting is checked on its own, so a bad one is reported by its
/// line.
enum ConfigArguments {
    /// Options that are flags: `true` gives the flag, `false` its `--no-` form when it has one,
    /// else nothing.
    static let flags: Set<String> = [
        "continue", "dry-run", "quiet", "verbose", "allow-overwrite", "conditional-get", "remote-time",
        "ask-password", "netrc", "insecure", "headless",
    ]
    /// Flags whose `false` is written `--no-NAME`.
    static let negatable: Set<String> = ["netrc"]
    /// Settings only the full-screen UI takes.
    static let uiOnly: Set<String> = ["headless"]

    /// The arguments `config` adds for `command` (`get` or `ui`), or an error naming the file,
    /// the line and what is wrong.
    static func arguments(from config: ConfigFile, path: String, command: String) throws -> [String] {
        var arguments: [String] = []
        for setting in config.settings where command == "ui" || !uiOnly.contains(setting.name) {
            let added = try self.arguments(for: setting)
            let place = "\(path)\(setting.line.map { ":\($0)" } ?? "")"
            do {
                _ = try Haul.parseAsRoot([command] + added)
            } catch {
                let message = Haul.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
                throw ValidationError("\(place): \(setting.name): \(message)")
            }
            arguments += added
        }
        return arguments
    }

    private static func arguments(for setting: ConfigFile.Setting) throws -> [String] {
        guard flags.contains(setting.name) else { return setting.values.map { "--\(setting.name)=\($0)" } }
        switch setting.values {
        case ["true"]: return ["--\(setting.name)"]
        case ["false"]: return negatable.contains(setting.name) ? ["--no-\(setting.name)"] : []
        default: throw ValidationError("\(setting.name) is true or false")
        }
    }

    /// The command line with config.toml's options put in: after the command's name (`get`,
    /// `ui`), else first (the default command, `ui`). Help and version requests get none.
    static func commandLine(_ arguments: [String], environment: [String: String]) throws -> [String] {
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
        if let first = arguments.first, first == "get" || first == "ui" {
            return [first] + (try self.arguments(from: config, path: path, command: first)) + arguments.dropFirst()
        }
        return try self.arguments(from: config, path: path, command: "ui") + arguments
    }
}
