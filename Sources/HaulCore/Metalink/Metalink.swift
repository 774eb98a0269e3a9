import Foundation
import HaulNet
import HaulText

// MARK: - Metalink

/// A Metalink 4 document (RFC 5854): files, each with its mirrors (priority and location), its
/// size, its whole-file hash and its piece hashes. `MetalinkParser` reads one; `entries` turns
/// it into queue entries, one a file, the mirrors in the order to try them.
public struct Metalink: Sendable, Equatable {
    /// One `<file>`.
    public struct File: Sendable, Equatable {
        /// A relative path inside the download directory (checked: no `..`, no leading `/`).
        public var name: String
        public var size: Int64?
        /// The strongest whole-file hash given.
        public var hash: ExpectedChecksum?
        public var pieces: PieceHashes?
        public var mirrors: [Mirror]
    }

    /// One `<url>`: lower `priority` first (1 to 999999; 999999 when not given).
    public struct Mirror: Sendable, Equatable {
        public var uri: String
        public var priority: Int
        /// ISO 3166-1 alpha-2, lower-case.
        public var location: String?
    }

    /// The most a Metalink document may hold (bytes).
    public static let sizeLimit = 16 << 20
    /// The media type of a Metalink 4 document (aria2's `--follow-metalink` follows it).
    public static let mediaType = "application/metalink4+xml"

    public var files: [File]

    /// Whether `uri` or a path names a Metalink by its suffix (`.meta4`, `.metalink`).
    static func isMetalinkName(_ text: String) -> Bool {
        // Read as bytes in place: every line of a queue file is asked, and every completion.
        text.withUTF8Bytes { bytes in
            let path = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex)]
            return suffixes.contains { ASCIIText.equals(path.suffix($0.utf8.count), ignoringCase: $0) }
        }
    }

    /// What a Metalink's name ends with, in lower case.
    private static let suffixes = [".meta4", ".metalink"]

    /// Whether `text` names a Metalink on this machine: a path (no scheme) ending `.meta4` or
    /// `.metalink`.
    ///
    /// - Parameter text: A command-line argument or a queue file's URI.
    /// - Returns: True for a local path ending `.meta4` or `.metalink`.
    public static func isLocalMetalink(_ text: String) -> Bool {
        isMetalinkName(text) && !text.contains("://")
    }

    /// Queue entries for the files: the mirrors ordered by priority, those in `locations`
    /// (aria2's `--metalink-location`) first among equals; the hash and piece hashes as options;
    /// each file's name as `out`. The other options are `inherited`'s, those of whatever named
    /// the Metalink (its name, checksum, piece hashes and gid aside: they were the document's).
    /// `fromServer`: a server sent the document (followed, or named by a URL), so each name is
    /// made one plain file name (`NameGate.serverName`); a file left with none is left out; and
    /// its mirrors are a list loaded by URL's (`OptionSource.remoteList`): no credential of the
    /// user's goes to them.
    ///
    /// - Parameters:
    ///   - locations: Country codes whose mirrors go first among equal priorities.
    ///   - inherited: The options of the entry that named the Metalink.
    ///   - fromServer: Whether a server sent the document, so its names are untrusted.
    /// - Returns: An entry per file that has at least one mirror (and, from a server, a usable name).
    public func entries(
        preferring locations: [String] = [], inheriting inherited: DownloadOptions = DownloadOptions(),
        fromServer: Bool
    )
        -> [QueueEntry]
    {
        var inherited = inherited
        inherited.out = nil
        inherited.checksum = nil
        inherited.pieceHashes = nil
        inherited.gid = nil
        if fromServer, inherited.addedBy < .remoteList {
            // A server chose these mirrors: the credentials given for the Metalink's URI stay there.
            inherited.values = inherited.values.withoutCredentials
            inherited.source = .remoteList
        }
        let preferred = Set(locations.map { $0.lowercased() })
        return files.compactMap { file in
            let ordered = file.mirrors.enumerated().sorted { first, second in
                let a = (first.element.priority, preferred.contains(first.element.location ?? "") ? 0 : 1, first.offset)
                let b = (
                    second.element.priority, preferred.contains(second.element.location ?? "") ? 0 : 1, second.offset
                )
                return a < b
            }
            guard !ordered.isEmpty, let name = fromServer ? NameGate.serverName(file.name) : file.name else {
                return nil
            }
            var options = DownloadOptions()
            options.out = name
            options.checksum = file.hash
            if let pieces = file.pieces, file.size.map(pieces.fit) ?? true { options.pieceHashes = pieces }
            return QueueEntry(uris: ordered.map(\.element.uri), options: options.merged(over: inherited))
        }
    }
}
