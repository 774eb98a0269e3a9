import Foundation
import HaulNet
import HaulText

// MARK: - QueueEntry

/// One download as a queue file describes it: its URIs (mirrors of the same file) and options.
/// URIs are kept as text (a parsed URL costs about four times the memory, which counts in a
/// queue of 100,000) and parsed when an attempt starts.
public struct QueueEntry: Sendable, Equatable {
    public var uris: URIList
    /// Who wrote the entry, which decides which options it may give (`DownloadOption.settableBy`).
    /// (Here, in the byte the URIs leave free, so an entry takes 48 bytes: a million are read
    /// before any is queued.)
    public var origin: OptionSource
    /// Its options, without a gid: entries alike share one copy (`DownloadOptions.Interner`).
    public var options: DownloadOptions
    /// The line of its URI line in the file it came from (0 when it did not come from a file).
    public var line: Int
    /// The gid's number, 0 for none (no gid is 0).
    private var gidNumber: UInt64 = 0

    /// The gid the entry names (a saved session's `gid=`, an RPC client's `gid`), kept apart
    /// from its options: a session of a million entries, each with a gid of its own, would
    /// otherwise hold a million copies of the same options (some 500 MB).
    public var gid: GID? {
        get { GID(gidNumber) }
        set { gidNumber = newValue?.value ?? 0 }
    }

    /// An entry of `uris` with `options`; a gid among them becomes the entry's `gid`.
    ///
    /// - Parameters:
    ///   - uris: The file's URIs: the first and its mirrors.
    ///   - options: The entry's own options, `gid` among them.
    ///   - line: The queue file's line it came from, for messages; 0 when none.
    ///   - origin: Who wrote it, which limits what its options may do.
    public init(
        uris: [String], options: DownloadOptions = DownloadOptions(), line: Int = 0, origin: OptionSource = .owner
    ) {
        self.uris = URIList(uris)
        self.origin = origin
        self.options = options
        self.line = line
        if let gid = options.gid {
            self.gid = gid
            self.options.gid = nil
        }
    }

    /// The longest URI taken: far above what servers accept (nginx refuses a request line over
    /// 8 KiB by default), so a hostile queue file cannot fill the memory or the terminal with one.
    public static let longestURI = 65_536

    /// Why `text` cannot be a download's URI, or nil when it can: http, https, ftp, ftps or sftp
    /// with a host, or a magnet link with a BitTorrent hash.
    ///
    /// - Parameter text: A URI as given.
    /// - Returns: A message naming what is wrong (too long, a control character, no URI, no
    ///   scheme, a scheme haul does not fetch, no host), or nil.
    public static func uriProblem(_ text: String) -> String? {
        let length = text.utf8.count
        if length > longestURI {
            return "'\(TextSanitizer.visible(String(text.prefix(60))))…' is \(length) bytes long; "
                + "haul takes URIs of at most \(longestURI) (servers refuse far shorter ones)"
        }
        if isPlainWebURI(text) { return nil }
        if text.unicodeScalars.contains(where: TextSanitizer.isUnsafe) {
            return "'\(TextSanitizer.visible(text))' holds a control character (a stray CR or escape)"
        }
        if case .magnet = TorrentLink(uri: text) { return TorrentLink.magnetProblem(text) }
        guard let url = URL(string: text) else { return "'\(text)' cannot be parsed as a URI" }
        guard let scheme = url.scheme?.lowercased() else {
            return "'\(text)' has no scheme (expected e.g. https://…)"
        }
        guard Request.supportedSchemes.contains(scheme) else {
            return "'\(text)' has the unsupported scheme '\(scheme)' (haul loads http, https, ftp, ftps and sftp)"
        }
        guard let host = url.host, !host.isEmpty else { return "'\(text)' has no host" }
        return nil
    }

    /// Why `text` cannot be a torrent's web seed (BEP 19: an HTTP or HTTPS URL), or nil when it
    /// can. Checked after `uriProblem`.
    ///
    /// - Parameter text: The URI.
    /// - Returns: A message naming the URI, or nil.
    public static func webSeedProblem(_ text: String) -> String? {
        let scheme = text.prefix { $0 != ":" }.lowercased()
        return scheme == "http" || scheme == "https"
            ? nil
            : "'\(TextSanitizer.visible(text))' cannot be a web seed: a torrent's web seeds are http or https URLs"
    }

    /// The common case, checked without parsing a URL (which a queue of 100,000 would pay for
    /// 100,000 times): `http`, `https`, `ftp` or `ftps`, then `://`, a host of letters, digits,
    /// dots and dashes, and the rest only of characters a URI may hold as they are. Anything else
    /// goes to the full parse.
    static func isPlainWebURI(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), isSupportedScheme(bytes[..<colon]),
                bytes[colon...].starts(with: "://".utf8)
            else { return false }
            let host = colon + 3
            let hostEnd = bytes[host...].firstIndex { !isHostByte($0) } ?? bytes.endIndex
            guard hostEnd != host else { return false }
            if hostEnd != bytes.endIndex, bytes[hostEnd] != UInt8(ascii: "/"), bytes[hostEnd] != UInt8(ascii: ":") {
                return false
            }
            return bytes[hostEnd...].allSatisfy(isPlainURIByte)
        }
    }

    /// Whether `scheme` is one haul loads, in any case, read without making a string of it.
    private static func isSupportedScheme(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        Request.supportedSchemes.contains { ASCIIText.equals(scheme, ignoringCase: $0) }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// Unreserved and reserved URI characters (RFC 3986) and `%`, except the brackets, which
    /// belong only around an IPv6 host.
    private static func isPlainURIByte(_ byte: UInt8) -> Bool {
        if isHostByte(byte) { return true }
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"),
            UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }
}
