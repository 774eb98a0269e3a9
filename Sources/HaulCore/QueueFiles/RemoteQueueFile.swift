import Dispatch
import Foundation
import HaulNet
import HaulText
import Synchronization

// MARK: - RemoteQueueFile

/// A queue file named by a URL (`haul -i https://host/list.txt`, or the UI's import prompt): a
/// small load, so it goes through the `Fetcher` and its `ResponseCache` in the user's cache
/// directory. A list the server marks fresh is read from disk; a stale one with an ETag or a
/// Last-Modified is confirmed with a 304 instead of sent again.
///
/// **Threading:** safe from any thread. The completion of `read(_:completion:)` runs on the
/// fetcher's callback queue.
public final class RemoteQueueFile: Sendable {
    /// The cache's size: entries up to 5% of it (3.2 MiB, some 30,000 URLs) are kept.
    public static let cacheCapacity: Int64 = 64 << 20

    public let fetcher: Fetcher
    /// The longest list read (`InputFile.defaultLimit` unless the user raised it); the fetcher
    /// keeps no longer body in memory.
    public let limit: Int64

    /// A reader that loads through `fetcher`, at most `limit` bytes a file.
    ///
    /// - Parameters:
    ///   - fetcher: The fetcher to load with; its body limit is set to `limit`.
    ///   - limit: The most bytes of a queue file, after inflating gzip.
    public init(fetcher: Fetcher, limit: Int64 = InputFile.defaultLimit) {
        self.fetcher = fetcher
        self.limit = limit
        fetcher.maximumBodyLength = limit
    }

    /// A reader whose fetcher keeps responses in `cacheDirectory(environment:)`. A cache that
    /// cannot be opened is reported to `warn` and the file is loaded without one.
    ///
    /// - Parameters:
    ///   - environment: The variables to find the cache directory by; the process's own by default.
    ///   - limit: The most bytes of a queue file.
    ///   - tls: How certificates are checked (`--ca-certificate`, `--insecure`).
    ///   - warn: Gets a line when the cache cannot be opened.
    /// - Returns: The reader.
    public static func standard(
        environment: [String: String] = ProcessEnvironment.variables,
        limit: Int64 = InputFile.defaultLimit, tls: TLSOptions = TLSOptions(), warn: (String) -> Void
    ) -> RemoteQueueFile {
        let cache: ResponseCache?
        do {
            cache = try ResponseCache(directory: cacheDirectory(environment: environment), capacity: cacheCapacity)
        } catch {
            warn("haul: warning: \(error); queue files are loaded without it")
            cache = nil
        }
        let fetcher = Fetcher(cache: cache)
        fetcher.tls = tls
        return RemoteQueueFile(fetcher: fetcher, limit: limit)
    }

    /// `$XDG_CACHE_HOME/haul/responses`, else `~/.cache/haul/responses`.
    static func cacheDirectory(environment: [String: String]) -> String {
        XDGDirectory.cache.path(environment: environment) + "/responses"
    }

    /// The URL `argument` names when it is a URI haul loads (`QueueEntry.uriProblem` finds
    /// none); nil for a path.
    ///
    /// - Parameter argument: A command-line argument or a typed path.
    /// - Returns: The URL, or nil when `argument` is to be read as a path.
    public static func url(in argument: String) -> URL? {
        QueueEntry.uriProblem(argument) == nil ? URL(string: argument) : nil
    }

    // MARK: - Reading

    /// Loads the queue file at `url` and reads it as `InputFile.read(_:name:origin:limit:)` does
    /// (its entries `.remote`), naming it by its URL without any password.
    ///
    /// - Parameters:
    ///   - url: The queue file's URL.
    ///   - completion: Gets the entries and problems, or why the file could not be had; on the
    ///     fetcher's queue.
    public func read(
        _ url: URL, completion: @escaping @Sendable (Result<InputFile.ReadResult, InputFile.FileError>) -> Void
    ) {
        let limit = limit
        load(url) { loaded in
            completion(
                Result { () throws(InputFile.FileError) in
                    try InputFile.read(
                        try loaded.mapError(Self.asQueueFile).get(), name: url.redactedString, origin: .remoteList,
                        limit: limit)
                })
        }
    }

    /// `read(_:completion:)`, waiting for it: for the command line, before anything else runs.
    ///
    /// - Parameter url: The queue file's URL.
    /// - Returns: The entries and each line's problems.
    /// - Throws: `InputFile.FileError` when the load fails or the file cannot be read.
    public func read(_ url: URL) throws(InputFile.FileError) -> InputFile.ReadResult {
        let data = try load(url).mapError(Self.asQueueFile).get()
        return try InputFile.read(data, name: url.redactedString, origin: .remoteList, limit: limit)
    }

    /// A load's failure, said of a queue file.
    private static func asQueueFile(_ error: InputFile.FileError) -> InputFile.FileError {
        InputFile.FileError(description: "queue file \(error.description)")
    }

    /// The body at `url` (at most `limit` bytes), through the cache.
    ///
    /// - Parameters:
    ///   - url: What to load.
    ///   - completion: Gets the body or why it could not be had; on the fetcher's queue.
    public func load(_ url: URL, completion: @escaping @Sendable (Result<Data, InputFile.FileError>) -> Void) {
        let name = url.redactedString
        fetcher.fetch(
            url, completion: { data, _ in completion(.success(data)) },
            failure: { error in
                completion(.failure(InputFile.FileError(description: "'\(name)' could not be loaded: \(error)")))
            })
    }

    /// `load(_:completion:)`, waiting for it.
    ///
    /// - Parameter url: What to load.
    /// - Returns: The body, or why it could not be had.
    public func load(_ url: URL) -> Result<Data, InputFile.FileError> {
        let result = Mutex<Result<Data, InputFile.FileError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        load(url) { answer in
            result.withLock { $0 = answer }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
            ?? .failure(InputFile.FileError(description: "'\(url.redactedString)' could not be loaded"))
    }
}
