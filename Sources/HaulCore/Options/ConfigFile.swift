import Foundation
import HaulNet
import TOMLKit

// MARK: - ConfigFile

/// `$XDG_CONFIG_HOME/haul/config.toml` (else `~/.config/haul/config.toml`): haul's settings, read
/// by `haul` and `haul get` alike. `theme` is the UI's; every other key is one of haul's options
/// by its long name, as aria2's `aria2.conf` takes them. The command line wins.
///
/// ```toml
/// theme = "solarized-dark"         # a theme name or a path to a .toml file
/// dir = "~/Downloads"
/// max-connection-per-server = 4
/// continue = true
/// header = ["X-From: haul"]        # a repeatable option takes a list
/// ```
public struct ConfigFile: Sendable, Equatable {
    /// One option line: its name, its values as text (several for a list), and its line.
    public struct Setting: Sendable, Equatable {
        public let name: String
        public let values: [String]
        public let line: Int?

        /// The option `name` set to `values` on `line` (from 1).
        ///
        /// - Parameters:
        ///   - name: The option's long name.
        ///   - values: Its values as text, several for a list.
        ///   - line: The line, nil when not known.
        public init(name: String, values: [String], line: Int?) {
            self.name = name
            self.values = values
            self.line = line
        }
    }

    /// The theme named in the file (`theme = "NAME"`), the UI's setting.
    public var theme: String?
    /// The options in the file, by name (not in the file's order: TOML tables are unordered).
    public var settings: [Setting] = []

    /// A config of `theme` and `settings`.
    ///
    /// - Parameters:
    ///   - theme: The theme's name or path, nil for none.
    ///   - settings: The option lines.
    public init(theme: String? = nil, settings: [Setting] = []) {
        self.theme = theme
        self.settings = settings
    }

    /// The config file's path for `environment`.
    ///
    /// - Parameter environment: The process's environment (`XDG_CONFIG_HOME`, `HOME`).
    /// - Returns: `$XDG_CONFIG_HOME/haul/config.toml`, else `~/.config/haul/config.toml`.
    public static func path(environment: [String: String] = ProcessEnvironment.variables) -> String {
        XDGDirectory.config.path(environment: environment) + "/config.toml"
    }

    /// Reads the file at `path`; a missing file is an empty config, a broken one an error naming
    /// the file, line and key.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: Its theme and settings.
    /// - Throws: `TOMLFileError` naming the file, the line and the key.
    public static func load(path: String) throws(TOMLFileError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else { return ConfigFile() }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Reads a config file's `text`; `file` names it in errors.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: Its path, for errors.
    /// - Returns: Its theme and settings.
    /// - Throws: `TOMLFileError` naming the file, the line and the key.
    public static func parse(_ text: String, file: String) throws(TOMLFileError) -> ConfigFile {
        let path = file
        let table = try TOMLLines.table(from: text, file: path)
        var config = ConfigFile()
        let lines = TOMLLines(text: text)
        for key in table.keys.sorted() {
            let line = lines.line(of: key)
            if key == "theme" {
                guard let theme = table[key]?.string else {
                    throw TOMLFileError(
                        file: path, line: line, key: key, message: "must be a string: a theme name or a path")
                }
                config.theme = theme
                continue
            }
            let values: [String]? =
                if let array = table[key]?.array {
                    array.map(text(of:)).allSatisfy { $0 != nil } ? array.compactMap(text(of:)) : nil
                } else {
                    table[key].flatMap(text(of:))
                        .map { [$0] }
                }
            guard let values else {
                throw TOMLFileError(
                    file: path, line: line, key: key,
                    message: "must be a string, a number, true or false, or a list of strings")
            }
            config.settings.append(Setting(name: key, values: values, line: line))
        }
        // In the file's order, so that what is said of them reads down the file.
        config.settings.sort { ($0.line ?? .max, $0.name) < ($1.line ?? .max, $1.name) }
        return config
    }

    /// Sets `theme = "NAME"` in the config file at `path`, keeping every other line as it is
    /// (the file and its directory are created when missing; a new file is mode 0600, as it may
    /// come to hold a password).
    ///
    /// - Parameters:
    ///   - theme: The theme's name or path.
    ///   - path: The config file's path.
    /// - Throws: `TOMLFileError` when the file cannot be written.
    public static func remember(theme: String, at path: String) throws(TOMLFileError) {
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let escaped = theme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let setting = "theme = \"\(escaped)\""
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if let index = lines.firstIndex(where: { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("theme")
                && trimmed.dropFirst(5).trimmingCharacters(in: .whitespaces).hasPrefix("=")
        }) {
            lines[index] = setting
        } else {
            // At the top: a key after a [section] would belong to that section.
            lines.insert(setting, at: 0)
        }
        if lines.last != "" { lines.append("") }
        do {
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // The replacement keeps the file's mode (0600 for a new one).
            let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] ?? 0o600
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        } catch {
            throw TOMLFileError(
                file: path, line: nil, key: "theme", message: "cannot remember the theme: \(error.localizedDescription)"
            )
        }
    }

    /// A value as an option's text: a string, an integer, or true/false.
    private static func text(of value: any TOMLValueConvertible) -> String? {
        value.string ?? value.int.map(String.init) ?? value.bool.map(String.init)
    }
}
