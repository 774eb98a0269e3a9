import Foundation
import HaulNet
import HaulText

// MARK: - InputFile

/// The queue format aria2c users keep (`aria2c -i`, `--save-session`), which also reads
/// `wget -i` lists: see docs/downloads.md, queue files. Errors never abort the file: each bad
/// line gets one `FILE:LINE: what is wrong` problem and the valid entries are kept.
public enum InputFile {
    /// One thing wrong with one line.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let file: String
        public internal(set) var line: Int
        public let message: String
        /// A warning leaves the line's meaning intact (an ignored aria2 option); an error drops it.
        public let isWarning: Bool

        /// `message` quotes the file (a URI, an option's name or value), which may come from
        /// anyone: its control characters are made visible, so no escape sequence in it reaches
        /// the terminal the problem is printed on.
        ///
        /// - Parameters:
        ///   - file: The queue file's name as the user knows it (a path, `-`, a URL without password).
        ///   - line: The line the problem is on, from 1.
        ///   - message: What is wrong with the line.
        ///   - isWarning: Whether the line is kept despite it.
        public init(file: String, line: Int, message: String, isWarning: Bool) {
            self.file = TextSanitizer.visible(file)
            self.line = line
            self.message = TextSanitizer.visible(message)
            self.isWarning = isWarning
        }

        public var description: String { "\(file):\(line): \(isWarning ? "warning: " : "")\(message)" }
    }

    /// What reading a file gave.
    public struct ReadResult: Sendable {
        public var entries: [QueueEntry] = []
        public var problems: [Problem] = []

        /// Lines dropped for an error.
        public var rejectedLines: Int { Set(problems.filter { !$0.isWarning }.map(\.line)).count }

        /// `12 entries queued, 2 lines rejected`.
        public var summary: String {
            let entries = "\(self.entries.count) \(self.entries.count == 1 ? "entry" : "entries") queued"
            let rejected = rejectedLines
            return "\(entries), \(rejected) \(rejected == 1 ? "line" : "lines") rejected"
        }
    }

    /// Why a queue file could not be read at all, or written.
    public struct FileError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    // MARK: - Reading

    /// The longest queue-file text read (after inflating gzip) unless the user raises it: a
    /// list from elsewhere cannot fill the memory.
    public static let defaultLimit: Int64 = 256 << 20

    /// Reads the queue file at `path` (`-` for standard input), gzip-compressed or not, a
    /// megabyte at a time: a file the user named, so its entries are the user's
    /// (`OptionSource.user`).
    ///
    /// - Parameters:
    ///   - path: The queue file, or `-` for standard input.
    ///   - limit: The most bytes of text read, after inflating gzip.
    /// - Returns: The entries and each line's problems.
    /// - Throws: `FileError` when the file cannot be opened or read, is not valid gzip, or is longer
    ///   than `limit`.
    public static func read(contentsOf path: String, limit: Int64 = defaultLimit) throws(FileError) -> ReadResult {
        try read(contentsOf: path, limit: limit, halvesFrom: Halves.shortest)
    }

    /// `read(contentsOf:limit:)`, reading a regular file of at least `halvesFrom` bytes in two
    /// halves at once (`Halves`).
    static func read(contentsOf path: String, limit: Int64, halvesFrom: Int64) throws(FileError) -> ReadResult {
        // Read through a handle, not as a regular file's contents, so a pipe (`-i <(command)`)
        // or a device reads too.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw FileError(description: "queue file '\(path)' is a directory; give a file of URLs")
        }
        let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path)
        guard let handle else {
            let reason =
                FileManager.default.fileExists(atPath: path)
                ? "cannot be read (check its permissions)" : "does not exist"
            throw FileError(description: "queue file '\(path)' \(reason)")
        }
        if path != "-", let halves = Halves(of: handle.fileDescriptor, limit: limit, shortest: halvesFrom) {
            return try halves.read(name: path, limit: limit)
        }
        var reader = InputFileReader(name: path == "-" ? "<stdin>" : path, origin: .queueFile, limit: limit)
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw FileError(description: "queue file '\(path)' cannot be read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            try reader.feed(contentsOf: chunk)
        }
        return try reader.finish()
    }

    /// Reads queue-file bytes; `name` is used in problem messages, `origin` says who wrote them.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes, gzip-compressed or not.
    ///   - name: How to name the file in problems.
    ///   - origin: Who wrote it, which decides the options it may set (`DownloadOption.settableBy`).
    ///   - limit: The most bytes of text read, after inflating gzip.
    /// - Returns: The entries and each line's problems.
    /// - Throws: `FileError` when the bytes are not valid gzip or are longer than `limit`.
    public static func read(
        _ bytes: some ContiguousBytes, name: String, origin: OptionSource,
        limit: Int64 = defaultLimit
    ) throws(FileError) -> ReadResult {
        var reader = InputFileReader(name: name, origin: origin, limit: limit)
        try reader.feed(contentsOf: bytes)
        return try reader.finish()
    }

    // MARK: - Writing

    /// The queue-file text for `entries`: URIs joined by TAB, then ` name=value` for each set
    /// option. Secrets (http-passwd, Authorization/Cookie headers, passwords in URIs) only when
    /// `includingSecrets`.
    ///
    /// - Parameters:
    ///   - entries: The entries to write, in order.
    ///   - includingSecrets: Whether passwords and secret headers are written.
    /// - Returns: The text, each entry ending in a line break.
    public static func render(_ entries: some Sequence<QueueEntry>, includingSecrets: Bool) -> String {
        entries.map { text(of: $0, includingSecrets: includingSecrets) }.joined()
    }

    /// Writes `entries` to `path` atomically (a temporary file no one can predict, renamed over
    /// it), mode 0600: even without the secrets haul knows of, a queue's URLs may carry tokens.
    /// The text is written as it is made, a piece at a time, so a long queue is never held as
    /// one text in memory.
    ///
    /// - Parameters:
    ///   - entries: The entries to write, in order.
    ///   - path: The file to write; replaced if it exists.
    ///   - includingSecrets: Whether passwords and secret headers are written.
    /// - Throws: `FileError` when the file cannot be made, written or renamed; `path` is then unchanged.
    public static func save(
        _ entries: some Sequence<QueueEntry>, to path: String, includingSecrets: Bool
    ) throws(FileError) {
        try write(to: path) { output in
            for entry in entries where output.complete {
                output.append(text(of: entry, includingSecrets: includingSecrets))
            }
        }
    }

    /// Writes `downloads` to `path` as `save` does, each entry with its download's gid, so that
    /// reading the file back continues them (what `--save-session` writes). Downloads that share
    /// their options (a queue file's) have their option lines made once.
    ///
    /// - Parameters:
    ///   - downloads: The downloads to write, in queue order.
    ///   - path: The file to write; replaced if it exists.
    ///   - includingSecrets: Whether passwords and secret headers are written.
    /// - Throws: `FileError` when the file cannot be made, written or renamed; `path` is then unchanged.
    public static func saveSession(
        _ downloads: some Sequence<Download>, to path: String, includingSecrets: Bool
    ) throws(FileError) {
        try write(to: path) { output in
            var last: (options: DownloadOptions, lines: SessionOptionLines)?
            // Each piece goes out as it is: a million entries are not made into a million texts.
            for download in downloads where output.complete {
                let lines: SessionOptionLines
                if let last, last.options.sharesValues(with: download.options) {
                    lines = last.lines
                } else {
                    lines = SessionOptionLines(download.options, includingSecrets: includingSecrets)
                    last = (download.options, lines)
                }
                output.append(uriLine(of: download.uris, includingSecrets: includingSecrets))
                output.append(lines.head)
                output.append(" gid=")
                output.append(download.id.description)
                output.append("\n")
                output.append(lines.tail)
            }
        }
    }

    /// A download's option lines but its gid: those before where the gid goes, and those after.
    private struct SessionOptionLines {
        var head = ""
        var tail = ""

        init(_ options: DownloadOptions, includingSecrets: Bool) {
            for (name, value) in options.pairs(includingSecrets: includingSecrets) where name != "gid" {
                if name == "header" {
                    tail += " \(name)=\(value)\n"
                } else {
                    head += " \(name)=\(value)\n"
                }
            }
        }
    }

    /// Queue-file text on its way to a file, gathered and written 64 KiB at a time.
    private struct Output {
        let descriptor: Int32
        /// False once a write failed; nothing more is written then.
        private(set) var complete = true
        private var pending: [UInt8] = []

        init(descriptor: Int32) {
            self.descriptor = descriptor
            pending.reserveCapacity(1 << 16)
        }

        mutating func append(_ text: String) {
            guard complete else { return }
            pending += text.utf8
            if pending.count >= 1 << 16 { flush() }
        }

        mutating func flush() {
            if complete { complete = PosixFile.writeAll(pending, to: descriptor) }
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what `produce` gives to `path` atomically: a temporary file no one can predict,
    /// synced, renamed over it.
    private static func write(to path: String, _ produce: (inout Output) -> Void) throws(FileError) {
        let failure = PosixFile.replace(path, mode: 0o600) { descriptor in
            var output = Output(descriptor: descriptor)
            produce(&output)
            output.flush()
            return output.complete
        }
        if let failure { throw FileError(description: "cannot write '\(path)': \(failure)") }
    }

    /// The line of `uris`, joined by TAB.
    private static func uriLine(of uris: some Collection<String>, includingSecrets: Bool) -> String {
        if uris.count == 1, let uri = uris.first {
            return URIText.shown(uri, includingSecrets: includingSecrets) + "\n"
        }
        return uris.map { URIText.shown($0, includingSecrets: includingSecrets) }.joined(separator: "\t") + "\n"
    }

    /// One entry's lines.
    private static func text(of entry: QueueEntry, includingSecrets: Bool) -> String {
        var text = uriLine(of: entry.uris, includingSecrets: includingSecrets)
        for (name, value) in entry.options.pairs(includingSecrets: includingSecrets) {
            text += " \(name)=\(value)\n"
        }
        if let gid = entry.gid { text += " gid=\(gid)\n" }
        return text
    }
}
