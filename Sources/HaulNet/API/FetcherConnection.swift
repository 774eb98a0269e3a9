import Foundation

// MARK: - FetcherConnection

/// The connection subclass behind one `Fetcher` load: it holds the load's two blocks, the data
/// received so far and the response (docs/connection-contract.md, the fetcher).
///
/// **Threading:** its mutable state is touched only on the fetcher's delegate queue, and under
/// `lock` so that `Fetcher.cancelAll()` may read it from any thread.
final class FetcherConnection: Connection, @unchecked Sendable {
    typealias Completion = @Sendable (Data, Response) -> Void
    typealias Failure = @Sendable (ConnectionError) -> Void

    private let lock = NSLock()
    private var completion: Completion?
    private var failure: Failure?
    private var received = Data()
    private var cancellationHandler: (@Sendable () -> Void)?

    init(
        request: Request, fetcher: Fetcher, queue: any DelegateQueue, engine: ConnectionEngine,
        cache: ResponseCache? = nil, completion: @escaping Completion, failure: @escaping Failure,
        cancellationHandler: (@Sendable () -> Void)? = nil
    ) {
        self.completion = completion
        self.failure = failure
        self.cancellationHandler = cancellationHandler
        super.init(request: request, delegate: fetcher, queue: queue, engine: engine, cache: cache)
    }

    /// Cancels the load; neither block runs, but the cancellation handler (the async form's
    /// way to end its wait) does, once.
    override func cancel() {
        super.cancel()
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            defer {
                cancellationHandler = nil
                completion = nil
                failure = nil
            }
            return cancellationHandler
        }
        handler?()
    }

    /// A new response: whatever came before belongs to an earlier part and is dropped.
    func resetData() {
        lock.withLock { received = Data() }
    }

    /// Adds `data` and returns how many bytes the load has received.
    func append(_ data: Data) -> Int64 {
        lock.withLock {
            received.append(data)
            return Int64(received.count)
        }
    }

    /// Takes the blocks and the data, so each block runs at most once.
    func takeEnding() -> (Completion?, Failure?, Data) {
        lock.withLock {
            defer {
                completion = nil
                failure = nil
                cancellationHandler = nil
                received = Data()
            }
            return (completion, failure, received)
        }
    }
}
