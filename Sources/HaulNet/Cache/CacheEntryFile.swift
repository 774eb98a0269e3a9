import Foundation
import HaulText

// MARK: - CacheEntryFile

/// One `ResponseCache` entry on disk: a line of JSON (the URL, the response's head, when it was
/// stored, the varying request fields, the body's length) followed by the body's bytes.
///
/// Written to a temporary file and renamed, so a reader sees a whole entry or none; a file that
/// does not parse, is for another URL, or has a body of the wrong length is not an entry.
enum CacheEntryFile {
    static let suffix = ".entry"
    /// What names a temporary file: the entry's name, then this and a random number.
    private static let temporaryMarker = ".entry.tmp-"

    private struct Head: Codable {
        var version = 1
        var url: String
        var status: Int
        var reason: String
        var httpVersion: String
        var headers: [[String]]
        var storedAt: Double
        var vary: [String: String]
        var bodyLength: Int
    }

    /// The cache's key for `url`: its text without a fragment and without a password (the key
    /// is written into the entry, and a password never reaches the disk).
    static func key(for url: URL) -> String {
        let text = URIText.shown(url.absoluteString, includingSecrets: false)
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }

    static func isEntry(_ name: String) -> Bool { name.hasSuffix(suffix) && !name.contains(temporaryMarker) }
    static func isLeftover(_ name: String) -> Bool { name.contains(temporaryMarker) }

    // MARK: - Reading

    /// The entry in `path` if it is a whole entry for `url`.
    static func read(_ path: String, url: URL) -> CachedResponse? {
        guard let contents = FileManager.default.contents(atPath: path),
            let newline = contents.firstIndex(of: 0x0A),
            let head = try? JSONDecoder().decode(Head.self, from: contents[..<newline]),
            head.version == 1, head.url == key(for: url),
            contents.endIndex - newline - 1 == head.bodyLength,
            let responseURL = URL(string: head.url)
        else { return nil }
        var headers = HTTPHeaders()
        for field in head.headers where field.count == 2 { headers.add(field[0], field[1]) }
        let response = Response(
            url: responseURL, statusCode: head.status, reasonPhrase: head.reason,
            httpVersion: head.httpVersion, headers: headers, isFromCache: true)
        return CachedResponse(
            response: response, data: Data(contents[(newline + 1)...]),
            storedAt: Date(timeIntervalSince1970: head.storedAt), varyingRequestHeaders: head.vary)
    }

    // MARK: - Writing

    /// Writes `cached` as the entry for `url` at `path` (mode 0600) and returns the file's size.
    /// `Set-Cookie` fields are left out; on any failure nothing is left behind.
    static func write(
        _ cached: CachedResponse, url: URL, to path: String, directory: String
    ) throws(ResponseCacheError) -> Int64 {
        let kept = cached.response.headers.filter {
            !$0.name.caseInsensitiveEquals("Set-Cookie") && !$0.name.caseInsensitiveEquals("Set-Cookie2")
        }
        let head = Head(
            url: key(for: url), status: cached.response.statusCode, reason: cached.response.reasonPhrase,
            httpVersion: cached.response.httpVersion, headers: kept.map { [$0.name, $0.value] },
            storedAt: cached.storedAt.timeIntervalSince1970, vary: cached.varyingRequestHeaders,
            bodyLength: cached.data.count)
        var contents: Data
        do {
            contents = try JSONEncoder().encode(head)
        } catch {
            throw ResponseCacheError(
                directory: directory, detail: "the entry for \(url.redactedString) cannot be encoded")
        }
        contents.append(0x0A)
        contents.append(cached.data)
        guard let (descriptor, temporary) = PosixFile.createTemporary(beside: path, mode: 0o600) else {
            throw ResponseCacheError(
                directory: directory, detail: "cannot create an entry: \(String(cString: strerror(errno)))")
        }
        let failure = PosixFile.writeAll(contents, to: descriptor) ? nil : errno
        close(descriptor)
        if let failure = failure ?? (rename(temporary, path) == 0 ? nil : errno) {
            unlink(temporary)
            throw ResponseCacheError(
                directory: directory, detail: "cannot write an entry: \(String(cString: strerror(failure)))")
        }
        return Int64(contents.count)
    }
}
