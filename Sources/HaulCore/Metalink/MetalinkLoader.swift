import Foundation

// MARK: - MetalinkLoader

/// Expands queue entries that name a Metalink (a path on this machine, or a URI, ending
/// `.meta4` or `.metalink`) into an entry for each file it describes, before they are queued:
/// `haul get file.meta4`, `haul get https://host/file.meta4`, and `-i` lines naming one. The
/// entry's own options (`dir`…) carry over to its files; their names stay inside the directory.
public struct MetalinkLoader {
    /// Loads a Metalink named by URL (bounded by `Metalink.sizeLimit`).
    let fetch: (URL) throws(InputFile.FileError) -> Data
    /// aria2's `--metalink-location`: mirrors in these countries first among equals.
    let locations: [String]

    /// A loader that fetches a Metalink named by URL with `fetch`.
    ///
    /// - Parameters:
    ///   - locations: `--metalink-location`'s country codes.
    ///   - fetch: Loads a URL's body (bounded by `Metalink.sizeLimit`); throws what went wrong.
    public init(locations: [String], fetch: @escaping (URL) throws(InputFile.FileError) -> Data) {
        self.locations = locations
        self.fetch = fetch
    }

    /// `entries`, each naming a Metalink replaced by the entries of its files; what was left out
    /// of a Metalink goes to `report`. Throws when a named Metalink cannot be read at all.
    ///
    /// - Parameters:
    ///   - entries: Queue entries, from the command line or a queue file.
    ///   - report: Gets one line for each file of a Metalink left out, and why.
    /// - Returns: The entries with each Metalink replaced by its files, in order.
    /// - Throws: `MetalinkParser.Failure` naming the Metalink that cannot be fetched or parsed.
    public func expand(_ entries: [QueueEntry], report: (String) -> Void) throws(MetalinkParser.Failure) -> [QueueEntry]
    {
        guard Self.namesMetalink(entries) else { return entries }
        var expanded: [QueueEntry] = []
        for entry in entries {
            guard entry.uris.count == 1, let name = entry.uris.first, Metalink.isMetalinkName(name) else {
                expanded.append(entry)
                continue
            }
            let result = try read(name)
            for problem in result.problems { report(problem) }
            let fromServer = !Metalink.isLocalMetalink(name)
            for var file in result.metalink.entries(
                preferring: locations, inheriting: entry.options, fromServer: fromServer)
            {
                file.line = entry.line
                file.origin = entry.origin
                expanded.append(file)
            }
        }
        return expanded
    }

    /// Whether any of `entries` names a Metalink (its one URI ends `.meta4` or `.metalink`).
    ///
    /// - Parameter entries: Queue entries.
    /// - Returns: True when at least one has a single URI naming a Metalink.
    public static func namesMetalink(_ entries: [QueueEntry]) -> Bool {
        entries.contains { $0.uris.count == 1 && $0.uris.first.map(Metalink.isMetalinkName) == true }
    }

    /// The document `name` names: a file here, or a URL's body.
    private func read(_ name: String) throws(MetalinkParser.Failure) -> MetalinkParser.Result {
        if Metalink.isLocalMetalink(name) {
            return try MetalinkParser.parse(contentsOf: XDGDirectory.expandingTilde(name), source: name)
        }
        guard let url = URL(string: name) else {
            throw MetalinkParser.Failure(description: "'\(TextSanitizer.visible(name))' is not a URL")
        }
        let data: Data
        do {
            data = try fetch(url)
        } catch {
            throw MetalinkParser.Failure(description: error.description)
        }
        return try MetalinkParser.parse(data, source: name)
    }
}
