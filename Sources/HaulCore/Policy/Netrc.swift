import Foundation

// MARK: - Netrc

/// A netrc file, as curl, wget and aria2 read it: `machine HOST login USER password PASS`
/// entries, a `default` entry for every other host, `macdef` blocks (skipped up to the next
/// empty line), and `#` comments. Values may be quoted (`"two words"`, with `\"` and `\\`).
/// A download that names no `http-user` takes its host's entry.
public struct Netrc: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var login: String
        public var password: String
    }

    /// Entries by lower-cased host name; the first entry for a host wins, as in curl.
    public private(set) var machines: [String: Entry] = [:]
    public private(set) var fallback: Entry?

    /// `~/.netrc` (`$HOME` first, as curl reads it), which is read when no other file is named.
    public static var defaultPath: String {
        XDGDirectory.home() + "/.netrc"
    }

    /// Parses netrc text. A `machine` without a login is kept out (nothing to send).
    ///
    /// - Parameter text: A netrc file's text (`machine`, `login`, `password`, `default`, `macdef`).
    public init(parsing text: String) {
        var tokens = Netrc.tokens(in: text)[...]
        var host: String?? = nil  // .some(nil) is the default entry
        var login: String?
        var password: String?
        func close() {
            if let host, let login {
                let entry = Entry(login: login, password: password ?? "")
                if let host {
                    if machines[host] == nil { machines[host] = entry }
                } else if fallback == nil {
                    fallback = entry
                }
            }
            (host, login, password) = (nil, nil, nil)
        }
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                close()
                host = .some(tokens.popFirst()?.lowercased())
            case "default":
                close()
                host = .some(nil)
            case "login": login = tokens.popFirst()
            case "password": password = tokens.popFirst()
            case "account": _ = tokens.popFirst()
            default: break
            }
        }
        close()
    }

    /// Reads the file at `path`; nil when it does not exist.
    ///
    /// - Parameter path: The netrc file (`~/.netrc` unless `--netrc-path` says).
    /// - Returns: Its entries, or nil when there is no file.
    /// - Throws: `OptionError` when the file exists but cannot be read.
    public static func load(path: String) throws(OptionError) -> Netrc? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OptionError("cannot read the netrc file \(path)")
        }
        return Netrc(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Whether the file at `path` can be read by others than its owner (curl warns, aria2
    /// refuses: haul warns).
    ///
    /// - Parameter path: The netrc file.
    /// - Returns: True when its group or others may read or write it.
    public static func isShared(path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & 0o077 != 0
    }

    /// The login and password for `host`: its own entry, else the default one.
    ///
    /// - Parameter host: A host name, in any case.
    /// - Returns: The entry to log in with, or nil when there is neither.
    public func entry(for host: String) -> Entry? {
        machines[host.lowercased()] ?? fallback
    }

    // MARK: - Tokens

    /// Whitespace-separated tokens, quoted ones unquoted, comments and macro bodies left out.
    static func tokens(in text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            var rest = line[...]
            while let token = nextToken(&rest) {
                if token == "macdef" {
                    // A macro runs to the next empty line.
                    while let next = lines.popFirst(), !next.trimmingCharacters(in: .whitespaces).isEmpty {}
                    break
                }
                tokens.append(token)
            }
        }
        return tokens
    }

    /// The next token of `rest` (a `#` starts a comment to the end of the line).
    private static func nextToken(_ rest: inout Substring) -> String? {
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = rest.first, first != "#" else { return nil }
        var token = ""
        if first == "\"" {
            rest = rest.dropFirst()
            var escaped = false
            while let character = rest.popFirst() {
                if escaped {
                    token.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    break
                } else {
                    token.append(character)
                }
            }
            return token
        }
        while let character = rest.first, character != " ", character != "\t", character != "\r" {
            token.append(character)
            rest = rest.dropFirst()
        }
        return token
    }
}
