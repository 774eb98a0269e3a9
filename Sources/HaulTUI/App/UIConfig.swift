import Foundation
import HaulCore

// MARK: - UIConfig

/// `$XDG_CONFIG_HOME/haul/config.toml` (else `~/.config/haul/config.toml`): the UI's settings.
///
/// ```toml
/// theme = "solarized-dark"   # a theme name or a path to a .toml file
/// ```
public struct UIConfig: Sendable, Equatable {
    public var theme: String?

    public init(theme: String? = nil) {
        self.theme = theme
    }

    /// The config file's path for `environment`.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGDirectory.config.path(environment: environment) + "/config.toml"
    }

    /// Reads the file at `path`; a missing file is an empty config, a broken one an error naming
    /// the file, line and key.
    public static func load(path: String) throws(ThemeError) -> UIConfig {
        guard let data = FileManager.default.contents(atPath: path) else { return UIConfig() }
        let text = String(decoding: data, as: UTF8.self)
        let table = try ThemeLines.table(from: text, file: path)
        var config = UIConfig()
        let lines = ThemeLines(text: text)
        for key in table.keys {
            switch key {
            case "theme":
                guard let theme = table[key]?.string else {
                    throw ThemeError(file: path, line: lines.line(of: key), key: key, message: "must be a string: a theme name or a path")
                }
                config.theme = theme
            default:
                throw ThemeError(file: path, line: lines.line(of: key), key: key, message: "unknown setting (known: theme)")
            }
        }
        return config
    }
}
