import Foundation
import Synchronization

// MARK: - Fetcher

/// A small client for small loads, built on `Connection` and its delegate's contract:
/// `fetch` starts a load and returns at once; many run together; each is tracked by a
/// `FetcherConnection` holding its blocks, data and response, and forgotten when it ends.
///
/// **Threading:** `fetch`, `cancelAll` and the properties are safe from any thread. The
/// completion and failure blocks run on `callbackQueue`. A cancelled load calls neither.
public final class Fetcher: ConnectionDelegate {
    /// Seconds a load may wait for the server (default 60).
    public var timeoutInterval: TimeInterval {
        get { settings.withLock { $0.timeoutInterval } }
        set { settings.withLock { $0.timeoutInterval = newValue } }
    }

    /// The longest body a load keeps in memory (default 256 MiB): a longer one, announced or
    /// not, fails the load with `tooLarge` as soon as it passes the limit.
    public var maximumBodyLength: Int64 {
        get { settings.withLock { $0.maximumBodyLength } }
        set { settings.withLock { $0.maximumBodyLength = newValue } }
    }

    /// Whether a response with a status of 400 or more fails the load (default true); false
    /// hands it to `completion` like any other, for a caller that reads error bodies (JSON-RPC).
    public var failsOnHTTPError: Bool {
        get { settings.withLock { $0.failsOnHTTPError } }
        set { settings.withLock { $0.failsOnHTTPError = newValue } }
    }

    /// How HTTPS servers are checked (a CA file, or no check) for `fetch` and `data(from:)`.
    public var tls: TLSOptions {
        get { settings.withLock { $0.tls } }
        set { settings.withLock { $0.tls = newValue } }
    }

    /// The cache policy of each load (default `.useProtocolPolicy`).
    public var cachePolicy: CachePolicy {
        get { settings.withLock { $0.cachePolicy } }
        set { settings.withLock { $0.cachePolicy = newValue } }
    }

    /// Where the blocks (and the delegate messages behind them) run.
    public let callbackQueue: OperationQueue
    public let engine: ConnectionEngine
    /// Where loads find and keep responses, by each load's `cachePolicy`; nil for none.
    public let cache: ResponseCache?

    private struct Settings {
        var timeoutInterval: TimeInterval = 60
        var cachePolicy = CachePolicy.useProtocolPolicy
        var maximumBodyLength: Int64 = 256 << 20
        var failsOnHTTPError = true
        var tls = TLSOptions()
    }

    private let settings = Mutex(Settings())
    private let active = Mutex<[ObjectIdentifier: FetcherConnection]>([:])

    /// A fetcher whose loads run on `engine`; its blocks run on a serial queue of its own.
    ///
    /// - Parameters:
    ///   - engine: The engine thread that runs the transfers; `.shared` unless a test runs its own.
    ///   - cache: A response cache to answer from and fill (a queue file loaded by URL), or nil.
    public init(engine: ConnectionEngine = .shared, cache: ResponseCache? = nil) {
        self.engine = engine
        self.cache = cache
        callbackQueue = OperationQueue()
        callbackQueue.name = "haul.fetcher"
        callbackQueue.maxConcurrentOperationCount = 1
    }

    // MARK: - Loading

    /// Starts loading `url` and returns at once. At the end, `completion` gets the body and the
    /// response; an HTTP status of 400 or more, or a failed transfer, calls `failure` instead.
    ///
    /// - Parameters:
    ///   - url: What to load, with a GET.
    ///   - completion: Gets the whole body and the final response, on the fetcher's queue.
    ///   - failure: Gets the failure, on the fetcher's queue; a status of 400 or more is
    ///     `.httpStatus` while `failsOnHTTPError`.
    public func fetch(
        _ url: URL, completion: @escaping @Sendable (Data, Response) -> Void,
        failure: @escaping @Sendable (ConnectionError) -> Void
    ) {
        load(request(for: url), completion: completion, failure: failure)
    }

    /// A GET of `url` with this fetcher's timeout and cache policy.
    private func request(for url: URL) -> Request {
        var request = Request(url: url)
        request.acceptsEncodedContent = true
        settings.withLock { settings in
            request.timeoutInterval = settings.timeoutInterval
            request.cachePolicy = settings.cachePolicy
            request.tls = settings.tls
        }
        return request
    }

    @discardableResult
    private func load(
        _ request: Request, completion: @escaping @Sendable (Data, Response) -> Void,
        failure: @escaping @Sendable (ConnectionError) -> Void,
        cancellationHandler: (@Sendable () -> Void)? = nil
    ) -> FetcherConnection {
        let connection = FetcherConnection(
            request: request, fetcher: self, queue: callbackQueue, engine: engine,
            cache: cache, completion: completion, failure: failure,
            cancellationHandler: cancellationHandler)
        active.withLock { $0[ObjectIdentifier(connection)] = connection }
        connection.start()
        return connection
    }

    /// Loads `url` and returns its body and response; throws `ConnectionError` as `failure`
    /// would get it, and `CancellationError` when the task is cancelled.
    ///
    /// - Parameter url: What to load, with a GET.
    /// - Returns: The whole body and the final response.
    /// - Throws: `ConnectionError` when the load fails, or the status is 400 or more while
    ///   `failsOnHTTPError`; `CancellationError` when the task is cancelled (the load is
    ///   cancelled too).
    public func data(from url: URL) async throws -> (Data, Response) {
        try await data(for: request(for: url))
    }

    /// Loads `request` as it is (its method, body, timeout and socket) and returns the body and
    /// response, as `data(from:)` does.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The whole body and the final response.
    /// - Throws: `ConnectionError` when the load fails, or the status is 400 or more while
    ///   `failsOnHTTPError`; `CancellationError` when the task is cancelled (the load is
    ///   cancelled too).
    public func data(for request: Request) async throws -> (Data, Response) {
        let started = Mutex<FetcherConnection?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let resumeOnce = Mutex<CheckedContinuation<(Data, Response), any Error>?>(continuation)
                let resume = { @Sendable (result: Result<(Data, Response), any Error>) in
                    resumeOnce.withLock { $0.take() }?.resume(with: result)
                }
                let connection = load(
                    request, completion: { resume(.success(($0, $1))) },
                    failure: { resume(.failure($0)) },
                    cancellationHandler: { resume(.failure(CancellationError())) })
                started.withLock { $0 = connection }
                if Task.isCancelled { connection.cancel() }
            }
        } onCancel: {
            started.withLock { $0 }?.cancel()
        }
    }

    /// Cancels every running load; their blocks are never called.
    public func cancelAll() {
        let connections = active.withLock { active in
            defer { active.removeAll() }
            return Array(active.values)
        }
        for connection in connections { connection.cancel() }
    }

    /// How many loads are running.
    public var activeCount: Int { active.withLock { $0.count } }

    // MARK: - ConnectionDelegate

    public func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        guard let connection = connection as? FetcherConnection else { return .cancel }
        connection.resetData()
        if response.expectedContentLength > maximumBodyLength {
            stopOverLimit(connection)
            return .cancel
        }
        return .allow
    }

    public func connection(_ connection: Connection, didReceive data: Data) {
        guard let connection = connection as? FetcherConnection else { return }
        if connection.append(data) > maximumBodyLength { stopOverLimit(connection) }
    }

    /// Ends a load whose body passed `maximumBodyLength`: its failure block runs, and what it
    /// received is dropped.
    private func stopOverLimit(_ connection: FetcherConnection) {
        guard let connection = forget(connection) else { return }
        let (_, failure, _) = connection.takeEnding()
        connection.cancel()
        failure?(ConnectionError(kind: .tooLarge(limit: maximumBodyLength), url: connection.currentRequest.url))
    }

    public func connectionDidFinishLoading(_ connection: Connection) {
        guard let connection = forget(connection) else { return }
        let (completion, failure, data) = connection.takeEnding()
        guard let response = connection.response else {
            failure?(ConnectionError(kind: .transport, url: connection.currentRequest.url, detail: "no response"))
            return
        }
        if response.statusCode >= 400, failsOnHTTPError {
            failure?(
                ConnectionError(
                    kind: .httpStatus(code: response.statusCode, reason: response.reasonPhrase),
                    url: response.url))
        } else {
            completion?(data, response)
        }
    }

    public func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        guard let connection = forget(connection) else { return }
        let (_, failure, _) = connection.takeEnding()
        failure?(error)
    }

    private func forget(_ connection: Connection) -> FetcherConnection? {
        active.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }
}
