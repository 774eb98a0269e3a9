import Foundation
import HaulNet
import HaulText

// MARK: - InputFileParser

/// The line-by-line grammar of the queue format: URI lines start entries, indented
/// `name=value` lines are their options, `#` lines and empty lines are skipped.
struct InputFileParser {
    private let name: String
    private let origin: OptionSource
    private var result = InputFile.ReadResult()
    private var current: QueueEntry?
    /// The current entry's options as they are read: one plain value changed in place, so an
    /// entry with thousands of option lines costs no copy per line.
    private var values = DownloadOptions.Values()
    private var interner = DownloadOptions.Interner()
    /// Whether `values` took an option line since the entry began (cheaper to ask than whether
    /// they differ from none, which compares every field).
    private var valuesSet = false
    /// True after a URI line none of whose URIs could be used: its option lines are skipped.
    private var skippingDroppedEntry = false

    /// UTF-8's byte-order mark.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(name: String, origin: OptionSource) {
        self.name = name
        self.origin = origin
    }

    mutating func consume(line: String, number: Int) {
        // A byte-order mark an editor put before the first line is no part of a URI (aria2c and
        // wget2 take it as one, and fail the entry).
        if number == 1, line.utf8.starts(with: InputFileParser.byteOrderMark) {
            return consume(line: String(line.utf8.dropFirst(3)) ?? "", number: number)
        }
        // Bytes, not Characters: a million lines are not cut into graphemes to find the first.
        guard let first = line.utf8.first, first != UInt8(ascii: "#") else { return }
        if first == 0x20 || first == 0x09 {
            consumeOption(line[...].trimmingBlanks(), number: number)
        } else {
            consumeURIs(line, number: number)
        }
    }

    mutating func finish() -> InputFile.ReadResult {
        closeEntry()
        return result
    }

    // MARK: - Lines

    private mutating func consumeURIs(_ line: String, number: Int) {
        closeEntry()
        var uris: [String] = []
        var problems: [String] = []
        // Most lines are one URI with no blank around it: taken as it is.
        let fields =
            line.withUTF8Bytes { $0.contains { $0 == 0x20 || $0 == 0x09 } }
            ? line.split(separator: "\t").map { String($0.trimmingBlanks()) }.filter { !$0.isEmpty } : [line]
        for field in fields {
            if fields.count == 1, Metalink.isLocalMetalink(field) {
                // A Metalink on this machine, read when the queue is: only the user's own files.
                if origin == .remoteList {
                    problems.append("a queue file loaded by URL may not name a file on this machine ('\(field)')")
                } else {
                    uris.append(field)
                }
            } else if fields.count == 1, TorrentLink.namesMetainfo(field), !field.contains("://") {
                // A .torrent on this machine (as aria2 reads one), from the current directory:
                // only the user's own files.
                if origin == .remoteList {
                    problems.append("a queue file loaded by URL may not name a file on this machine ('\(field)')")
                } else if let path = TorrentLink.localMetainfo(field, in: FileManager.default.currentDirectoryPath) {
                    uris.append(path)
                } else {
                    problems.append("'\(TextSanitizer.visible(field))' names no .torrent file here")
                }
            } else if let problem = QueueEntry.uriProblem(field) {
                problems.append(problem)
            } else {
                uris.append(field)
            }
        }
        if uris.isEmpty {
            skippingDroppedEntry = true
            report(number, problems.joined(separator: "; ") + "; entry dropped")
        } else {
            current = QueueEntry(uris: uris, line: number, origin: origin)
            if !problems.isEmpty {
                report(number, problems.joined(separator: "; ") + "; the entry keeps its other URIs", warning: true)
            }
        }
    }

    private mutating func consumeOption(_ text: Substring, number: Int) {
        guard !text.isEmpty, !skippingDroppedEntry else { return }
        guard current != nil else {
            report(number, "option line '\(text)' comes before any URI line (aria2 would read it as a URI)")
            return
        }
        guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            report(number, "'\(text)' is not name=value")
            return
        }
        let optionName = String(text[..<equals].trimmingBlanks())
        var value = String(text[text.utf8.index(after: equals)...].trimmingBlanks())
        if DownloadHooks.isHookOption(optionName) {
            let refusal = DownloadHooks.refusal(of: optionName, in: "a queue file")
            return report(number, refusal + "; ignored", warning: true)
        }
        if let refusal = DownloadOptionTable.option(named: optionName)?.refusal(of: value, from: origin) {
            // A session aria2 saved carries options it was started with: its lines are warned of.
            return report(number, refusal, warning: origin == .queueFile)
        }
        if optionName == "out", origin == .remoteList {
            // A list anyone could have written names its files as a server does (NameGate).
            guard let name = NameGate.serverName(value) else {
                return report(number, "out '\(TextSanitizer.visible(value))' leaves no file name; ignored")
            }
            if name != value {
                report(
                    number,
                    "out '\(TextSanitizer.visible(value))' is saved as '\(name)': a list loaded by URL names "
                        + "plain files (no folder, no leading dot) in the download directory", warning: true)
            }
            value = name
        }
        do {
            try values.set(optionName, value)
            valuesSet = true
        } catch {
            // An option haul does not implement is a warning: the entry is kept and the exit
            // status stays (aria2's own, from a session it saved, included).
            guard error.isUnknownOption else { return report(number, "\(optionName): \(error)") }
            report(number, Aria2OptionCatalog.ignored(optionName), warning: true)
        }
    }

    private mutating func closeEntry() {
        if var current {
            current.gid = values.gid
            values.gid = nil
            if !origin.isUsers {
                values.source = origin
                valuesSet = true
            }
            if valuesSet { current.options.values = values }
            current.options = interner.intern(current.options)
            result.entries.append(current)
        }
        current = nil
        values = DownloadOptions.Values()
        valuesSet = false
        skippingDroppedEntry = false
    }

    private mutating func report(_ line: Int, _ message: String, warning: Bool = false) {
        result.problems.append(InputFile.Problem(file: name, line: line, message: message, isWarning: warning))
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs; works on UTF-8 bytes, which is much faster
    /// than trimming a CharacterSet over a long queue file.
    func trimmingBlanks() -> Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return self[start..<end]
    }
}
