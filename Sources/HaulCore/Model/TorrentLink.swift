import Foundation
import HaulText

// MARK: - TorrentLink

/// What makes a download a torrent: its first URI is a magnet link, or the absolute path of a
/// `.torrent` file on this machine (a queue file's or the command line's, made absolute when
/// read; aria2's input files list them alike).
public enum TorrentLink: Sendable, Equatable {
    /// `magnet:?xt=urn:btih:…`: the metadata comes from peers.
    case magnet(String)
    /// A .torrent file's absolute path (its name may end otherwise, given with `-T`).
    case metainfoFile(String)

    /// The torrent `uri` names, or nil for any other URI. Looks at a byte or two of an ordinary
    /// URI: admission asks of every download.
    ///
    /// - Parameter uri: A download's first URI.
    public init?(uri: String) {
        switch uri.utf8.first {
        case UInt8(ascii: "m"), UInt8(ascii: "M"):
            guard uri.utf8.count > 7, ASCIIText.equals(uri.utf8.prefix(7), ignoringCase: "magnet:") else { return nil }
            self = .magnet(uri)
        case UInt8(ascii: "/"):
            // A path on this machine is a .torrent (by its name, or `-T`'s, whatever its name),
            // or a Metalink: nothing else reaches a queue without a scheme.
            guard !Metalink.isMetalinkName(uri) else { return nil }
            self = .metainfoFile(uri)
        default:
            return nil
        }
    }

    /// Why magnet link `link` names no torrent, or nil when it names one: its `xt` is a v1 info
    /// hash (`urn:btih:`, 40 hex digits or 32 base32 letters) or a v2 one (`urn:btmh:1220` and 64
    /// hex digits). libtorrent reads the rest when the torrent starts.
    ///
    /// - Parameter link: A `magnet:` URI.
    /// - Returns: A message naming what is wrong, or nil.
    public static func magnetProblem(_ link: String) -> String? {
        let topics = fields(of: link).filter { $0.name.lowercased().hasPrefix("xt") }.map(\.value)
        guard !topics.isEmpty else {
            return "'\(TextSanitizer.visible(link))' is a magnet link without a BitTorrent hash (xt=urn:btih:…)"
        }
        guard topics.contains(where: isInfoHash) else {
            return "'\(TextSanitizer.visible(link))' is a magnet link whose hash is not a BitTorrent info hash "
                + "(urn:btih: and 40 hex digits or 32 base32 letters, or urn:btmh:1220 and 64 hex digits)"
        }
        return nil
    }

    /// Whether `topic` (a magnet link's `xt`) is a BitTorrent info hash.
    private static func isInfoHash(_ topic: Substring) -> Bool {
        let lowercased = topic.lowercased()
        let isHex = { (text: Substring) in text.allSatisfy(\.isHexDigit) }
        if lowercased.hasPrefix("urn:btih:") {
            let hash = lowercased.dropFirst(9)
            let base32 = hash.allSatisfy { ("a"..."z").contains($0) || ("2"..."7").contains($0) }
            return (hash.count == 40 && isHex(hash)) || (hash.count == 32 && base32)
        }
        if lowercased.hasPrefix("urn:btmh:1220") {
            let hash = lowercased.dropFirst(13)
            return hash.count == 64 && isHex(hash)
        }
        return false
    }

    /// The absolute path of the .torrent file `argument` names on this machine (the command
    /// line's), or nil when it names none (a URL, a magnet link, a missing file).
    ///
    /// - Parameters:
    ///   - argument: What the user typed.
    ///   - directory: The directory a relative path is taken from.
    /// - Returns: The file's absolute path.
    public static func localMetainfo(_ argument: String, in directory: String) -> String? {
        guard namesMetainfo(argument), !argument.contains("://") else { return nil }
        let path = argument.hasPrefix("/") ? argument : directory + "/" + argument
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return NameGate.lexical(path)
    }

    /// What a row calls magnet link `link` until its metadata names it: its `dn` (display name),
    /// else `[METADATA]` and its hash, as aria2 shows one.
    ///
    /// - Parameter link: A `magnet:` URI.
    /// - Returns: The name, percent-decoded (not sanitized for a terminal).
    public static func shownName(of link: String) -> String {
        let fields = fields(of: link)
        if let shown = fields.first(where: { $0.name == "dn" }).flatMap({
            String($0.value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }), !shown.isEmpty {
            return shown
        }
        let topic = fields.first { $0.name.hasPrefix("xt") }?.value.split(separator: ":").last ?? ""
        return "[METADATA]" + topic
    }

    /// The `name=value` fields of magnet link `link`'s query, in order.
    private static func fields(of link: String) -> [(name: Substring, value: Substring)] {
        let query = link.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        return query.split(separator: "&").compactMap { field in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }

    /// Whether `path` ends in `.torrent` (any case).
    ///
    /// - Parameter path: A file's path or name.
    /// - Returns: True for a name of a metainfo file.
    public static func namesMetainfo(_ path: String) -> Bool {
        path.utf8.count > 8 && ASCIIText.equals(path.utf8.suffix(8), ignoringCase: ".torrent")
    }
}

extension Download {
    /// The torrent this download is, or nil for a download of a URL.
    public var torrentLink: TorrentLink? { uris.first.flatMap(TorrentLink.init(uri:)) }
}
