import Foundation

// MARK: - XDGDirectory

/// Where haul keeps its files, by the XDG base-directory rule: `$XDG_STATE_HOME`,
/// `$XDG_CACHE_HOME` or `$XDG_CONFIG_HOME` when it is an absolute path, else its default under
/// the home directory, with `haul` inside.
public enum XDGDirectory: Sendable {
    /// The queue's store (`~/.local/state/haul`).
    case state
    /// Responses kept for later loads (`~/.cache/haul`).
    case cache
    /// The config file and themes (`~/.config/haul`).
    case config

    /// haul's directory of this kind for `environment`.
    ///
    /// - Parameter environment: The variables to read; the process's own by default.
    /// - Returns: The directory's path, ending in `/haul`; not created here.
    public func path(environment: [String: String] = ProcessEnvironment.variables) -> String {
        let (variable, underHome) =
            switch self {
            case .state: ("XDG_STATE_HOME", "/.local/state")
            case .cache: ("XDG_CACHE_HOME", "/.cache")
            case .config: ("XDG_CONFIG_HOME", "/.config")
            }
        if let base = environment[variable], base.hasPrefix("/") { return base + "/haul" }
        return XDGDirectory.home(environment: environment) + underHome + "/haul"
    }

    /// `path` with a leading `~` (alone or before `/`) made the home directory, as a shell does.
    ///
    /// - Parameters:
    ///   - path: A path as a user typed it.
    ///   - environment: The variables to read `HOME` from; the process's own by default.
    /// - Returns: The path with `~` expanded; any other path as it is (`~user` included).
    public static func expandingTilde(
        _ path: String,
        environment: [String: String] = ProcessEnvironment.variables
    ) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return home(environment: environment) + path.dropFirst()
    }

    /// `$HOME` (as curl and the shell read it), else the account's home directory.
    ///
    /// - Parameter environment: The variables to read `HOME` from; the process's own by default.
    /// - Returns: The home directory's path.
    public static func home(environment: [String: String] = ProcessEnvironment.variables) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
