// MARK: - DownloadHooks

/// Commands run when a download starts, completes or fails, or a torrent starts seeding (aria2's
/// `--on-download-start`, `--on-download-complete`, `--on-download-error`,
/// `--on-bt-download-complete`), each given aria2's three arguments: the gid, the number of
/// files (1), and the file's path (a torrent's folder, or its one file).
///
/// A command is split into words as a shell splits them (quotes and backslashes) and run
/// without a shell; to have one, ask for it: `sh -c 'notify-send "$3"' hook`. Hooks are set only
/// where haul starts (its command line, its config file): never by a queue file or an RPC
/// client, whose text would otherwise run as the user.
public struct DownloadHooks: Sendable, Equatable {
    /// When a hook runs, by aria2's option name.
    public enum Moment: String, Sendable, CaseIterable {
        case start = "on-download-start"
        case complete = "on-download-complete"
        case error = "on-download-error"
        /// A torrent has every wanted piece and seeds from now on.
        case btComplete = "on-bt-download-complete"
    }

    /// One run of a hook: which, for which download, and its program and arguments.
    public struct Invocation: Sendable, Equatable {
        public let moment: Moment
        public let download: GID
        public let arguments: [String]
    }

    /// Each moment's command, as words.
    public private(set) var commands: [Moment: [String]] = [:]
    /// Seconds a hook may run before it is stopped (SIGTERM, then SIGKILL).
    public var timeLimit: Double
    /// Where downloads go unless they say (`-d`), and what a relative path is taken from.
    public var directory: String
    public var workingDirectory: String

    /// No commands yet; `set(_:_:)` adds them.
    ///
    /// - Parameters:
    ///   - timeLimit: Seconds a hook may run (`--hook-time-limit`).
    ///   - directory: The queue's download directory, for a download's path.
    ///   - workingDirectory: The directory hooks run in and relative paths are taken from.
    public init(timeLimit: Double = 60, directory: String = ".", workingDirectory: String = "/") {
        self.timeLimit = timeLimit
        self.directory = directory
        self.workingDirectory = workingDirectory
    }

    /// Sets the command run at `moment` from its text; throws when it holds no program or an
    /// unclosed quote.
    ///
    /// - Parameters:
    ///   - moment: When the command runs.
    ///   - text: The command as a shell would read it (quotes and backslashes), run without one.
    /// - Throws: `OptionError` when the text has no words or an unclosed quote.
    public mutating func set(_ moment: Moment, _ text: String) throws(OptionError) {
        let words = try DownloadHooks.words(of: text)
        guard !words.isEmpty else { throw OptionError("--\(moment.rawValue) names no program") }
        commands[moment] = words
    }

    /// Whether `name` is a hook option: one that runs a command, so a queue file or an RPC
    /// client may not set it.
    ///
    /// - Parameter name: An option's long name, without `--`.
    /// - Returns: True for `on-download-*` and aria2's `on-bt-download-*`.
    public static func isHookOption(_ name: String) -> Bool {
        name.hasPrefix("on-download-") || name.hasPrefix("on-bt-download-")
    }

    /// Why a hook option is refused where `place` gives it.
    ///
    /// - Parameters:
    ///   - name: The hook option's name.
    ///   - place: Where it was given (`a queue file`, `an RPC request`).
    /// - Returns: The message for the user.
    public static func refusal(of name: String, in place: String) -> String {
        "option '\(name)' runs a command as you: haul takes it from its command line or config file, "
            + "never from \(place)"
    }

    /// The run of the hook for `moment` about `download`, if one is set.
    func invocation(_ moment: Moment, for download: Download) -> Invocation? {
        guard let words = commands[moment] else { return nil }
        return Invocation(
            moment: moment, download: download.id,
            arguments: words + [download.id.description, "1", path(of: download)])
    }

    /// The file's path as aria2 gives it: where it is saved, else where it will be (`out`, else
    /// the URI's last part, in its directory) made absolute; empty when the URI names no file.
    func path(of download: Download) -> String {
        if let destination = download.destination { return absolute(destination) }
        guard let uri = download.uris.first, let name = FileNaming.expectedName(out: download.options.out, uri: uri)
        else { return "" }
        return absolute(FileNaming.path(for: name, in: download.directory ?? directory))
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileNaming.path(for: path, in: workingDirectory)
    }

    // MARK: - Words

    /// `text` split into words as a POSIX shell splits them, without expanding anything: blanks
    /// separate words; '…' keeps everything; "…" keeps everything but \" and \\; a backslash
    /// outside quotes keeps the next character; in "…" it keeps one of " \ $ `.
    static func words(of text: String) throws(OptionError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                // In double quotes a backslash only escapes what is special there.
                if quote == "\"", !"\"\\$`".contains(character) { word.append("\\") }
                word.append(character)
                escaped = false
            } else if quote == "'" {
                if character == "'" { quote = nil } else { word.append(character) }
            } else if quote == "\"" {
                if character == "\"" {
                    quote = nil
                } else if character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                inWord = true
                if character == "'" || character == "\"" {
                    quote = character
                } else if character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            }
        }
        guard quote == nil, !escaped else {
            throw OptionError("'\(TextSanitizer.visible(text))' ends inside a quote or after a backslash")
        }
        if inWord { words.append(word) }
        return words
    }
}
