import Foundation
import HaulText
import Synchronization

// MARK: - ResponseCache

/// Responses kept on disk for later loads of the same URL (docs/connection-contract.md, rule 7): one file per URL,
/// at most `capacity` bytes in all, the least recently used dropped first.
///
/// A connection created with a cache consults it before loading, by its request's
/// `cachePolicy`, and offers each response that may be stored to its delegate
/// (`willCacheResponse`) before storing it. The storing rules are `mayStore(_:for:)`.
///
/// Entries are files of mode 0600 in a directory of mode 0700; `Set-Cookie` is never stored,
/// nor anything of the request but the fields a response's `Vary` names.
///
/// **Threading:** every method is safe from any thread; each runs its file work under one lock.
/// Connections call it on their delegate queue.
public final class ResponseCache: Sendable {
    public let directory: String
    /// The most bytes the entries' files may take together.
    public let capacity: Int64

    private struct Entry {
        var size: Int64
        var lastUsed: Date
    }

    private let entries: Mutex<[String: Entry]>

    /// Opens (creating it if needed) the cache in `directory`, dropping the least recently used
    /// entries if they exceed `capacity`.
    ///
    /// - Parameters:
    ///   - directory: Where the entries are kept; made with mode 0700 when missing.
    ///   - capacity: The most bytes the entries may take, more than 0.
    /// - Throws: `ResponseCacheError` when the capacity is not positive or the directory cannot be
    ///   made or written.
    public init(directory: String, capacity: Int64) throws(ResponseCacheError) {
        guard capacity > 0 else {
            throw ResponseCacheError(directory: directory, detail: "the capacity must be more than 0 bytes")
        }
        self.directory = directory
        self.capacity = capacity
        if let failure = PosixFile.makeDirectories(directory, mode: 0o700) {
            throw ResponseCacheError(directory: directory, detail: "it cannot be created (\(failure))")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ResponseCacheError(directory: directory, detail: String(cString: strerror(errno)))
        }
        entries = Mutex(ResponseCache.scan(directory))
        entries.withLock { evict(&$0) }
    }

    /// The largest body stored: about 5% of the capacity, so one response cannot push out
    /// everything else.
    public var maximumEntrySize: Int64 { capacity / 20 }

    /// The bytes the entries take now.
    public var currentSize: Int64 { entries.withLock { $0.values.reduce(0) { $0 + $1.size } } }

    // MARK: - Reading and writing

    /// The stored response for `request`'s URL, if any and if the request has the values its
    /// `Vary` names. Marks it used.
    func cachedResponse(for request: Request) -> CachedResponse? {
        let name = ResponseCache.fileName(for: request.url)
        return entries.withLock { entries -> CachedResponse? in
            guard entries[name] != nil else { return nil }
            guard let stored = CacheEntryFile.read(path(name), url: request.url) else {
                // Damaged, or replaced behind the cache's back: forget it.
                unlink(path(name))
                entries[name] = nil
                return nil
            }
            guard ResponseCache.varyingHeaders(of: stored.response, in: request) == stored.varyingRequestHeaders else {
                return nil
            }
            entries[name]?.lastUsed = Date()
            // The file's time is its last use for the next run's cache.
            utimes(path(name), nil)
            return stored
        }
    }

    /// Stores `cached` as the answer to `request`'s URL, replacing any earlier one, then drops
    /// the least recently used entries beyond the capacity.
    ///
    /// - Parameters:
    ///   - cached: The response and body to store.
    ///   - request: The request it answers; its URL is the key.
    /// - Throws: `ResponseCacheError` when the body is larger than `maximumEntrySize` or the entry
    ///   cannot be written.
    public func store(_ cached: CachedResponse, for request: Request) throws(ResponseCacheError) {
        guard Int64(cached.data.count) <= maximumEntrySize else {
            throw ResponseCacheError(
                directory: directory,
                detail: "a body of \(cached.data.count) bytes is larger than an entry may be (\(maximumEntrySize))")
        }
        let name = ResponseCache.fileName(for: request.url)
        try entries.withLock { entries throws(ResponseCacheError) in
            let size = try CacheEntryFile.write(cached, url: request.url, to: path(name), directory: directory)
            entries[name] = Entry(size: size, lastUsed: Date())
            evict(&entries)
        }
    }

    /// Forgets the response stored for `request`'s URL.
    func removeCachedResponse(for request: Request) {
        let name = ResponseCache.fileName(for: request.url)
        entries.withLock { entries in
            if entries.removeValue(forKey: name) != nil { unlink(path(name)) }
        }
    }

    /// Forgets every stored response.
    public func removeAll() {
        entries.withLock { entries in
            for name in entries.keys { unlink(path(name)) }
            entries.removeAll()
        }
    }

    // MARK: - Storing rules (docs/connection-contract.md, rule 7)

    /// Whether `response`, received from the server for `request`, may be stored: an http or
    /// https GET of the whole resource, a 2xx other than 206, not answered from the cache, a
    /// cache policy that stores, no `no-store` on either side, no `Vary: *`, not a multipart
    /// stream, and a body (when its length is announced) within `maximumEntrySize`.
    func mayStore(_ response: Response, for request: Request) -> Bool {
        ResponseCache.isCacheable(request) && request.cachePolicy.storesResponses
            && (200..<300).contains(response.statusCode) && response.statusCode != 206
            && !response.isFromCache
            && !CacheControl(response.headers).noStore && !CacheControl(request.headers).noStore
            && !response.headers.values(for: "Vary").contains { $0.contains("*") }
            && response.mimeType != "multipart/x-mixed-replace"
            && response.expectedContentLength <= maximumEntrySize
    }

    /// Whether the cache has any say over `request`: an http or https GET of the whole resource
    /// with no body.
    static func isCacheable(_ request: Request) -> Bool {
        request.url.isHTTP && request.method == "GET" && request.body == nil && request.byteRange == nil
    }

    /// The request's values for the fields `response`'s `Vary` names (lower-cased names).
    /// Accept-Encoding is left out: the cache keeps the decoded body, the same for every coding.
    static func varyingHeaders(of response: Response, in request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for list in response.headers.values(for: "Vary") {
            for field in list.split(separator: ",") {
                let name = field.trimmingHTTPWhitespace().lowercased()
                guard !name.isEmpty, name != "accept-encoding" else { continue }
                values[name] = request.headers.values(for: name).joined(separator: ", ")
            }
        }
        return values
    }

    // MARK: - Files

    private func path(_ name: String) -> String { "\(directory)/\(name)" }

    /// Drops the least recently used entries until they fit the capacity.
    private func evict(_ entries: inout [String: Entry]) {
        var total = entries.values.reduce(0) { $0 + $1.size }
        guard total > capacity else { return }
        for (name, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where total > capacity {
            unlink(path(name))
            entries[name] = nil
            total -= entry.size
        }
    }

    /// The entries already in `directory` (their last use is their file's modification time),
    /// removing what an interrupted write left behind.
    private static func scan(_ directory: String) -> [String: Entry] {
        var found: [String: Entry] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names {
            let path = "\(directory)/\(name)"
            if CacheEntryFile.isLeftover(name) {
                unlink(path)
                continue
            }
            var info = stat()
            guard CacheEntryFile.isEntry(name), stat(path, &info) == 0 else { continue }
            found[name] = Entry(
                size: Int64(info.st_size),
                lastUsed: Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
        }
        return found
    }

    /// An entry's file name: 64-bit FNV-1a of the URL (without its fragment) in hex. The file
    /// holds the URL too, so two URLs with one hash never answer for each other.
    static func fileName(for url: URL) -> String {
        FNV1a.hex(CacheEntryFile.key(for: url)) + CacheEntryFile.suffix
    }
}

// MARK: - ResponseCacheError

/// The cache directory could not be used, or an entry could not be written.
public struct ResponseCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    public let directory: String
    public let detail: String

    public var description: String { "response cache \(directory): \(detail)" }
}

// MARK: - CachePolicy storing

extension CachePolicy {
    /// Whether a response loaded under this policy may be stored: every policy but
    /// `reloadIgnoringCache`, which neither reads nor writes the cache.
    public var storesResponses: Bool { self != .reloadIgnoringCache }
}
