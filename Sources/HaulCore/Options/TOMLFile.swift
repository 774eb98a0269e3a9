import Foundation
import TOMLKit

// MARK: - TOMLFileError

/// A TOML file of haul's (config.toml, a theme) that could not be used: which file, line and key,
/// and what is wrong.
public struct TOMLFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int?
    public let key: String?
    public let message: String

    /// An error in `file` at `line` (from 1), about `key` when there is one.
    ///
    /// - Parameters:
    ///   - file: The file's path or name.
    ///   - line: The line, nil when not known.
    ///   - key: The key, nil for the file or the line as a whole.
    ///   - message: What is wrong.
    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}

// MARK: - TOMLLines

/// haul's one TOML reader, for config.toml and the themes: a file's lines checked against
/// `TOMLSubset` (TOMLKit's parser trusts what malformed files break, found by fuzzing), then read
/// by TOMLKit; and the line a key is set on, since TOMLKit gives positions only for syntax errors.
public struct TOMLLines {
    let lines: [Substring]

    /// The lines of TOML `text`, to find keys in.
    ///
    /// - Parameter text: A whole TOML file.
    public init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Parses TOML `text`; a syntax error names `file` and the line. A line outside the subset
    /// these files use (`TOMLSubset`) is refused before TOMLKit sees it.
    ///
    /// - Parameters:
    ///   - text: A whole TOML file.
    ///   - file: Its path or name, for errors.
    /// - Returns: Its table.
    /// - Throws: `TOMLFileError` naming the file and the line.
    public static func table(from text: String, file: String) throws(TOMLFileError) -> TOMLTable {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let problem = TOMLSubset.problem(in: line) {
                throw TOMLFileError(file: file, line: index + 1, key: nil, message: problem)
            }
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw TOMLFileError(file: file, line: error.source.begin.line, key: nil, message: error.description)
        } catch {
            throw TOMLFileError(file: file, line: nil, key: nil, message: "\(error)")
        }
    }

    /// The first line (from 1) setting `key`, inside `[section]` when given.
    ///
    /// - Parameters:
    ///   - key: A key as written.
    ///   - section: The `[section]` it is in, nil for the top.
    /// - Returns: The line, or nil when no line sets it.
    public func line(of key: String, in section: String? = nil) -> Int? {
        var current: String?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = String(line.dropFirst().prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
                if section == nil, current == key { return index + 1 }
                continue
            }
            guard current == section else { continue }
            let name = line.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'"))
            if name == key { return index + 1 }
        }
        return nil
    }
}
