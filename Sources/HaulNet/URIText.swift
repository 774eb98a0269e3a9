// MARK: - URIText

/// URIs as text, and proxies written as URIs or as a bare `[user[:password]@]host:port`, shown
/// without their secrets. Works on the text itself, so a form `URLComponents` misreads (a
/// scheme-less `user:password@host`, where it takes `user` for the scheme) is handled too, and
/// everything else is kept as written.
public enum URIText {
    /// `uri` as written: whole with `includingSecrets`, else without the password of its
    /// `user:password@` part (the user name stays).
    public static func shown(_ uri: String, includingSecrets: Bool) -> String {
        guard !includingSecrets, let info = userInfo(in: uri), let colon = uri[info].firstIndex(of: ":") else {
            return uri
        }
        return String(uri[..<colon] + uri[info.upperBound...])
    }

    /// `uri` without its `user[:password]@` part.
    public static func withoutUserInfo(_ uri: String) -> String {
        guard let info = userInfo(in: uri) else { return uri }
        return String(uri[..<info.lowerBound] + uri[uri.index(after: info.upperBound)...])
    }

    /// The `user[:password]` part of the authority (after `scheme://`, or at the start when
    /// there is no scheme), up to the last `@` before the path; nil when there is none.
    private static func userInfo(in uri: String) -> Range<String.Index>? {
        // Most URIs have no `@` at all: a million of them are saved without being taken apart.
        guard uri.utf8.contains(UInt8(ascii: "@")) else { return nil }
        let start = uri.range(of: "://")?.upperBound ?? uri.startIndex
        let end = uri[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? uri.endIndex
        guard let at = uri[start..<end].lastIndex(of: "@") else { return nil }
        return start..<at
    }
}
