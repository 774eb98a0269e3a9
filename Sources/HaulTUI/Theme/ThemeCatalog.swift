import Foundation
import HaulCore

// MARK: - ThemeCatalog

/// The themes haul can show: the shipped ones (the repository's `Themes/*.toml`, installed
/// under `PREFIX/share/haul/themes`) and the user's (`$XDG_CONFIG_HOME/haul/themes/*.toml`,
/// which win on a name clash).
package struct ThemeCatalog: Sendable {
    package let directories: [String]

    /// `directories` are searched in order; the first holding `NAME.toml` wins.
    package init(directories: [String]) {
        self.directories = directories
    }

    /// The user's theme directory, then the shipped one.
    package static func standard(environment: [String: String] = ProcessEnvironment.variables) -> ThemeCatalog {
        var directories = [XDGDirectory.config.path(environment: environment) + "/themes"]
        if let shipped = shippedDirectory() { directories.append(shipped) }
        return ThemeCatalog(directories: directories)
    }

    /// The shipped themes: `themes/` beside the binary (a copy that carries its themes, as
    /// `make build` leaves it), else `../share/haul/themes` from it (`make install`), else the
    /// `Themes/` of the source tree it was built from (a development build).
    static func shippedDirectory() -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Themes").standardized.path
        let candidates = [
            executable.appendingPathComponent("themes").path,
            executable.appendingPathComponent("../share/haul/themes").standardized.path, sourceTree,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Every theme name, `default` first, then by name.
    package var names: [String] {
        var names = Set<String>()
        for directory in directories {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            where file.hasSuffix(".toml") {
                names.insert(String(file.dropLast(5)))
            }
        }
        return names.sorted { ($0 == "default" ? "" : $0) < ($1 == "default" ? "" : $1) }
    }

    /// The theme `nameOrPath` names: a path (with a `/` or ending in `.toml`) or a catalog name.
    package func load(_ nameOrPath: String) throws(TOMLFileError) -> Theme {
        let path: String
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            path = nameOrPath
        } else if let found = directories.map({ "\($0)/\(nameOrPath).toml" }).first(
            where: FileManager.default.fileExists)
        {
            path = found
        } else {
            let known = names
            throw TOMLFileError(
                file: nameOrPath, line: nil, key: nil,
                message: "no such theme (known: \(known.isEmpty ? "none found" : known.joined(separator: ", ")))")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw TOMLFileError(file: path, line: nil, key: nil, message: "cannot be read as UTF-8 text")
        }
        return try Theme.parse(text, file: path)
    }
}
