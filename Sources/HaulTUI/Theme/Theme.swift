import Foundation
import HaulCore
import TOMLKit

// MARK: - Theme

/// A style for every `Role`, read from a TOML file:
///
/// ```toml
/// name = "default"
/// [roles]
/// header = { fg = "bright-white", bg = "blue", bold = true }
/// selected-row = { fg = "black", bg = "#87afd7" }
/// ```
///
/// Colours are names, 0-255 or `#rrggbb`; attributes are `bold`, `dim`, `reverse` and
/// `underline`. A role the file leaves out keeps its style from `attributesOnly`, which is
/// readable without any colour.
package struct Theme: Sendable, Equatable {
    package let name: String
    private var styles: [Role: Style]

    package init(name: String, styles: [Role: Style] = [:]) {
        self.name = name
        self.styles = styles
    }

    package func style(_ role: Role) -> Style {
        if let style = styles[role] { return style }
        if role == .headerAlert, styles[.header] != nil {
            var alert = style(.header)
            let error = style(.error).foreground
            if error != .terminalDefault { alert.foreground = error }
            alert.bold = true
            return alert
        }
        return Theme.attributesOnly.styles[role] ?? Style()
    }

    /// This theme with colours removed: for `NO_COLOR` and terminals without colour.
    package var withoutColors: Theme {
        Theme(name: name, styles: Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, style($0).withoutColors) }))
    }

    /// The base of every theme, and the monochrome one: attributes only.
    package static let attributesOnly = Theme(
        name: "monochrome",
        styles: [
            .header: Style(reverse: true), .headerAccent: Style(bold: true, reverse: true),
            .headerAlert: Style(bold: true, reverse: true, underline: true),
            .graph: Style(reverse: true),
            .columnTitle: Style(underline: true), .selectedRow: Style(reverse: true),
            .progressDone: Style(reverse: true), .progressTodo: Style(dim: true),
            .active: Style(bold: true), .paused: Style(dim: true), .failed: Style(bold: true, underline: true),
            .cancelled: Style(dim: true), .complete: Style(), .error: Style(bold: true), .muted: Style(dim: true),
            .border: Style(dim: true), .functionKey: Style(bold: true), .functionLabel: Style(reverse: true),
            .prompt: Style(bold: true), .detailLabel: Style(bold: true), .rangeDone: Style(bold: true),
            .rangeTodo: Style(dim: true),
        ])

    // MARK: - Reading

    /// Reads a theme from TOML `text`; `file` names it in errors, which also give the line and key.
    package static func parse(_ text: String, file: String) throws(TOMLFileError) -> Theme {
        let table = try TOMLLines.table(from: text, file: file)
        let lines = TOMLLines(text: text)
        var styles: [Role: Style] = [:]
        let name = table["name"]?.string ?? file
        for key in table.keys where key != "name" && key != "roles" && key != "description" {
            throw TOMLFileError(
                file: file, line: lines.line(of: key), key: key,
                message: "unknown setting (expected name, description and [roles])")
        }
        guard let roles = table["roles"] else { return Theme(name: name) }
        guard let rolesTable = roles.table else {
            throw TOMLFileError(
                file: file, line: lines.line(of: "roles"), key: "roles", message: "must be a table: [roles]")
        }
        for key in rolesTable.keys {
            let line = lines.line(of: key, in: "roles")
            guard let role = Role(rawValue: key) else {
                throw TOMLFileError(
                    file: file, line: line, key: "roles.\(key)",
                    message: "unknown role (roles: \(Role.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let entry = rolesTable[key]?.table else {
                throw TOMLFileError(
                    file: file, line: line, key: "roles.\(key)",
                    message: "must be a table such as { fg = \"blue\", bold = true }")
            }
            styles[role] = try style(from: entry, key: "roles.\(key)", file: file, line: line)
        }
        return Theme(name: name, styles: styles)
    }

    private static func style(
        from entry: TOMLTable, key: String, file: String, line: Int?
    ) throws(TOMLFileError) -> Style {
        var style = Style()
        for attribute in entry.keys {
            let value = entry[attribute]
            switch attribute {
            case "fg", "bg":
                let text = value?.string ?? value?.int.map(String.init)
                guard let text, let color = Color(parsing: text) else {
                    throw TOMLFileError(
                        file: file, line: line, key: "\(key).\(attribute)",
                        message:
                            "'\(text ?? value.map { "\($0)" } ?? "")' is not a colour "
                            + "(a name such as blue or bright-red, 0-255, or #rrggbb)"
                    )
                }
                if attribute == "fg" { style.foreground = color } else { style.background = color }
            case "bold", "dim", "reverse", "underline":
                guard let flag = value?.bool else {
                    throw TOMLFileError(
                        file: file, line: line, key: "\(key).\(attribute)", message: "must be true or false")
                }
                switch attribute {
                case "bold": style.bold = flag
                case "dim": style.dim = flag
                case "reverse": style.reverse = flag
                default: style.underline = flag
                }
            default:
                throw TOMLFileError(
                    file: file, line: line, key: "\(key).\(attribute)",
                    message: "unknown attribute (fg, bg, bold, dim, reverse, underline)")
            }
        }
        return style
    }
}
