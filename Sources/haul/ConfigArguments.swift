import HaulCore
import HaulTUI

// MARK: - ConfigArguments

/// config.toml's options as command-line arguments, put before the user's so that the command
/// line wins (a later value of an option replaces an earlier one; a repeatable option, such as
/// `header`, gets both). Each setting is checked on its own, so a bad one is reported by its
/// line.
enum ConfigArguments {
    /// The arguments config.toml (found through `environment`) adds for `command`, or an error
    /// naming the file, the line and what is wrong.
    static func arguments(
        for command: Subcommand, environment: [String: String], warn: (String) -> Void
    ) throws(UsageError) -> [String] {
        let path = ConfigFile.path(environment: environment)
        let config: ConfigFile
        do {
            config = try ConfigFile.load(path: path)
        } catch {
            throw UsageError("\(error)")
        }
        return try arguments(from: config, path: path, command: command, warn: warn)
    }

    /// The arguments `config` adds for `command`: `name = value` is `--name=value`, which a flag
    /// takes as `true` or `false`. Each setting is read and validated on its own: one that
    /// `command` refuses but another command takes (`headless` for the UI, `rpc-secret` for the
    /// daemon, which the UI takes only with `connect`) is left out of this one. An option of
    /// aria2's that haul does not implement (an aria2.conf line, `file-allocation = "falloc"`)
    /// goes to `warn` and is left out, as a queue file's is.
    static func arguments(
        from config: ConfigFile, path: String, command: Subcommand, warn: (String) -> Void = { _ in }
    ) throws(UsageError) -> [String] {
        var arguments: [String] = []
        for setting in config.settings {
            let forms = setting.values.map { "--\(setting.name)=\($0)" }
            let place = "\(path)\(setting.line.map { ":\($0)" } ?? "")"
            do {
                try command.check(forms)
                arguments += forms
            } catch {
                if Subcommand.allCases.contains(where: { $0 != command && (try? $0.check(forms)) != nil }) { continue }
                let haulHasIt = Subcommand.allCases.contains { $0.option(named: setting.name) != nil }
                if !haulHasIt, Aria2OptionCatalog.scope(of: setting.name) != nil {
                    warn("\(place): warning: \(Aria2OptionCatalog.ignored(setting.name))")
                    continue
                }
                let reason =
                    haulHasIt
                    ? (error as? UsageError)?.message ?? "\(error)" : "not an option of haul (see haul get --help)"
                throw UsageError("\(place): \(setting.name): \(reason)")
            }
        }
        return arguments
    }
}
