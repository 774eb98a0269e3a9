import Foundation

// MARK: - RemoteAddress

/// The JSON-RPC URL of a daemon as a user types it for `--connect`: `http://HOST:PORT/jsonrpc`,
/// or the `ws://` and `wss://` forms aria2's clients use (the same endpoint over HTTP), with
/// `/jsonrpc` and port 6800 filled in when left out.
package enum RemoteAddress {
    package static func url(_ text: String) -> URL? {
        let typed = text.contains("://") ? text : "http://" + text
        guard var parts = URLComponents(string: typed), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty
        else { return nil }
        switch scheme {
        case "http", "ws": parts.scheme = "http"
        case "https", "wss": parts.scheme = "https"
        default: return nil
        }
        if parts.port == nil { parts.port = 6800 }
        if parts.path.isEmpty || parts.path == "/" { parts.path = "/jsonrpc" }
        return parts.url
    }
}
