import Foundation

// MARK: - QueueEntry

/// One download as a queue file describes it: its URIs (mirrors of the same file) and options.
/// URIs are kept as text (a parsed URL costs about four times the memory, which counts in a
/// queue of 100,000) and parsed when an attempt starts.
public struct QueueEntry: Sendable, Equatable {
    public var uris: [String]
    public var options: DownloadOptions
    /// The line of its URI line in the file it came from (0 when it did not come from a file).
    public var line: Int

    public init(uris: [String], options: DownloadOptions = DownloadOptions(), line: Int = 0) {
        self.uris = uris
        self.options = options
        self.line = line
    }

    /// Why `text` cannot be a download's URI, or nil when it can: http, https, ftp or ftps
    /// with a host.
    public static func uriProblem(_ text: String) -> String? {
        guard let url = URL(string: text) else { return "'\(text)' cannot be parsed as a URI" }
        guard let scheme = url.scheme?.lowercased() else { return "'\(text)' has no scheme (expected e.g. https://…)" }
        guard ["http", "https", "ftp", "ftps"].contains(scheme) else {
            return "'\(text)' has the unsupported scheme '\(scheme)' (haul loads http, https, ftp and ftps)"
        }
        guard let host = url.host, !host.isEmpty else { return "'\(text)' has no host" }
        return nil
    }
}
