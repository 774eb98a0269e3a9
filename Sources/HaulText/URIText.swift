// MARK: - URIText

/// URIs as text, and proxies written as URIs or as a bare `[user[:password]@]host:port`, shown
/// without their secrets. Works on the text itself, so a form `URLComponents` misreads (a
/// scheme-less `user:password@host`, where it takes `user` for the scheme) is handled too, and
/// everything else is kept as written.
public enum URIText {
    /// `uri` as written: whole with `includingSecrets`, else without the password of its
    /// `user:password@` part (the user name stays).
    ///
    /// - Parameters:
    ///   - uri: A URI as the user or a queue file gave it.
    ///   - includingSecrets: Whether the password may be shown: only where the user asked for it.
    /// - Returns: The text to print or store.
    public static func shown(_ uri: String, includingSecrets: Bool) -> String {
        guard !includingSecrets, let info = userInfo(in: uri), let colon = uri[info].firstIndex(of: ":") else {
            return uri
        }
        return String(uri[..<colon] + uri[info.upperBound...])
    }

    /// `uri` without its `user[:password]@` part.
    ///
    /// - Parameter uri: A URI that may carry a login.
    /// - Returns: `uri` with the user name and password removed, or as given when it has none.
    public static func withoutUserInfo(_ uri: String) -> String {
        guard let info = userInfo(in: uri) else { return uri }
        return String(uri[..<info.lowerBound] + uri[uri.index(after: info.upperBound)...])
    }

    /// The `user[:password]` part of the authority, up to the last `@` in it; nil when there is
    /// none.
    private static func userInfo(in uri: String) -> Range<String.Index>? {
        // Most URIs have no `@` at all: a million of them are saved without being taken apart.
        guard uri.containsUTF8Byte(UInt8(ascii: "@")) else { return nil }
        let authority = authority(in: uri).range
        guard let at = uri.utf8[authority].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return authority.lowerBound..<at
    }

    /// Where `uri`'s authority lies (`user:password@host:port`): after `scheme://`, or from the
    /// start when there is none (`schemeEnd` nil), up to the path, query or fragment.
    ///
    /// - Parameter uri: A URI, with or without a scheme.
    /// - Returns: Where `scheme://` ends (nil when there is none) and the range of the authority, which
    ///   is empty for a URI with no authority.
    public static func authority(in uri: String) -> (schemeEnd: String.Index?, range: Range<String.Index>) {
        let (schemeEnd, range) = uri.withUTF8Bytes(authority(inBytes:))
        let utf8 = uri.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        return (schemeEnd.map(index), index(range.lowerBound)..<index(range.upperBound))
    }

    /// `authority(in:)` as offsets into the URI's UTF-8 bytes. Read as bytes: the queue asks it
    /// of every download it admits.
    ///
    /// - Parameter bytes: A URI's UTF-8 bytes.
    /// - Returns: The offset just past `scheme://` (nil when there is none) and the authority's offsets.
    public static func authority(inBytes bytes: UnsafeBufferPointer<UInt8>) -> (schemeEnd: Int?, range: Range<Int>) {
        var schemeEnd: Int?
        var index = 0
        while schemeEnd == nil, index + 3 <= bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            {
                schemeEnd = index + 3
            }
            index += 1
        }
        let start = schemeEnd ?? 0
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
            bytes[end] != UInt8(ascii: "#")
        {
            end += 1
        }
        return (schemeEnd, start..<end)
    }

    /// The last segment of `uri`'s path when it is printable ASCII without `%`, `;` or `\\`
    /// (so `URL.lastPathComponent` would give it as it is), read as bytes without parsing a
    /// URL: a queue of a million and every small file's response ask.
    ///
    /// - Parameter uri: A URI.
    /// - Returns: The plain last segment, or nil when the path is empty or needs a real URL parser
    ///   (percent escapes, parameters, non-ASCII): ask `URL` then.
    public static func plainLastSegment(of uri: String) -> String? {
        uri.withUTF8Bytes { bytes -> String? in
            let (schemeEnd, authority) = authority(inBytes: bytes)
            let pathStart = authority.upperBound
            guard schemeEnd != nil, pathStart < bytes.count, bytes[pathStart] == UInt8(ascii: "/") else { return nil }
            var pathEnd = pathStart
            while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") {
                pathEnd += 1
            }
            guard let lastSlash = bytes[pathStart..<pathEnd].lastIndex(of: UInt8(ascii: "/")) else { return nil }
            let segment = UnsafeBufferPointer(rebasing: bytes[(lastSlash + 1)..<pathEnd])
            guard !segment.isEmpty,
                segment.allSatisfy({
                    $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: ";")
                        && $0 != UInt8(ascii: "\\")
                })
            else { return nil }
            return String(decoding: segment, as: UTF8.self)
        }
    }
}
