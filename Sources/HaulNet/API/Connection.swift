import Foundation
import Synchronization

// MARK: - Connection

/// Loads one `Request` asynchronously on a `ConnectionEngine` and tells its delegate what
/// happens, following the connection contract (see `ConnectionDelegate`).
///
/// Subclass it to keep per-load state beside the load (the fetcher's connection holds its
/// blocks, data and response; a download holds its write buffer).
///
/// **Threading:** `start()`, `cancel()` and the accessors may be called from any thread.
/// Delegate messages run on the `DelegateQueue` given to `init`, one at a time, in order.
/// Internal methods named `engine…` are called only from the engine thread.
open class Connection: @unchecked Sendable {
    // MARK: State

    private enum Phase { case idle, running, finished, cancelled }

    private struct Progress {
        var bytes: Int64 = 0
        var total: Int64 = 0
        var expected: Int64 = -1
        var scheduled = false
    }

    /// Everything mutable, guarded by `state`'s lock.
    private struct State {
        var phase = Phase.idle
        var delegate: (any ConnectionDelegate)?
        var currentRequest: Request
        var response: Response?
        var pendingData = Data()
        var dataScheduled = false
        var receivingPaused = false
        var sent = Progress()
        var written = Progress()
    }

    private static let nextID = Atomic<UInt64>(1)
    /// Body bytes held for the delegate before the engine stops reading from the socket.
    static let deliveryHighWater = 4 << 20

    public let originalRequest: Request
    public let engine: ConnectionEngine
    let id: UInt64
    private let delivery: SerialDelivery
    private let caching: CachingLoad?
    /// Answers a final response on the engine thread before the delegate hears of it (see `init`).
    let presumedDisposition: (@Sendable (Response) -> ResponseDisposition?)?
    private let state: Mutex<State>

    // MARK: - Public API

    /// Creates a connection; nothing is sent before `start()`. With a `cache`, the request's
    /// `cachePolicy` decides whether a stored response answers it, and a response that may be
    /// stored is offered to the delegate (`willCacheResponse`) and then stored. Big downloads
    /// pass none.
    ///
    /// `presuming` answers the final response itself, on the engine thread, when the answer is
    /// known before the load starts (a download's small file goes to a file with no name): its
    /// body goes where the answer says at once, without a round trip through the delegate
    /// queue per load. The delegate still gets `connection(_:didReceive:)`, and only a
    /// `.cancel` from it counts: it cancels the load. nil from `presuming` asks the delegate as
    /// usual. Not with a `cache`.
    ///
    /// - Parameters:
    ///   - request: What to load.
    ///   - delegate: Receives every message of the contract; held strongly until the load ends.
    ///   - queue: Where the delegate's messages run, one at a time and in order.
    ///   - engine: The engine thread that runs the transfer; `.shared` unless a test runs its own.
    ///   - cache: A response cache to read and fill, or nil.
    ///   - presuming: Answers the final response on the engine thread, or nil to always ask the delegate.
    public init(
        request: Request, delegate: any ConnectionDelegate, queue: any DelegateQueue,
        engine: ConnectionEngine = .shared, cache: ResponseCache? = nil,
        presuming: (@Sendable (Response) -> ResponseDisposition?)? = nil
    ) {
        precondition(cache == nil || presuming == nil, "a cached load's response is answered by its delegate")
        originalRequest = request
        self.engine = engine
        caching = cache.map(CachingLoad.init)
        presumedDisposition = presuming
        id = Connection.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        delivery = SerialDelivery(queue: queue)
        state = Mutex(State(delegate: delegate, currentRequest: request))
    }

    /// Starts the load. Calling it again, or after `cancel()`, does nothing. With a cache, the
    /// cache is read on the delegate queue first.
    public func start() {
        let starts = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard starts else { return }
        if let caching {
            deliver { [self] delegate in begin(with: caching.plan(for: currentRequest), delegate: delegate) }
        } else {
            engine.submit(.start(self))
        }
    }

    /// Sends `plan`'s request, or answers from the cache.
    private func begin(with plan: CachingLoad.Plan, delegate: any ConnectionDelegate) {
        switch plan {
        case .load(let request):
            state.withLock { $0.currentRequest = request }
            engine.submit(.start(self))
        case .serve(let cached):
            let disposition = present(cached.response, to: delegate)
            deliverCachedBody(cached.data, as: disposition, finishing: true)
        }
    }

    /// Stops the load. No delegate message runs after this returns (one already running on the
    /// delegate queue completes). The delegate is released. Subclasses that override it call
    /// `super.cancel()`.
    open func cancel() {
        let wasRunning = state.withLock { state -> Bool in
            let wasRunning = state.phase == .running
            if state.phase == .running || state.phase == .idle {
                state.phase = .cancelled
                state.delegate = nil
                state.pendingData = Data()
            }
            return wasRunning
        }
        if wasRunning { engine.submit(.cancel(id)) }
    }

    /// Changes the receive-speed cap (bytes per second, nil for none), before the load starts
    /// or while it runs.
    ///
    /// - Parameter bytesPerSecond: The new cap, or nil to lift it. Safe from any thread.
    public func setMaxReceiveSpeed(_ bytesPerSecond: Int64?) {
        // Kept in the request too: a load not yet started begins with it.
        state.withLock { $0.currentRequest.maxReceiveSpeed = bytesPerSecond }
        engine.submit(.setMaxReceiveSpeed(id, bytesPerSecond))
    }

    /// Ends a download's body at file offset `end` (only ever earlier than its target's), so
    /// another connection can take the rest of a segment; it ends successfully there.
    ///
    /// - Parameter end: The file offset where the body now stops; ignored when it is not earlier
    ///   than the current end. Safe from any thread.
    public func limitDownload(toFileOffset end: Int64) {
        engine.submit(.limitDownload(id, end))
    }

    /// The request of the current hop: the original one, or the last redirect followed.
    public var currentRequest: Request { state.withLock { $0.currentRequest } }

    /// The final response, once the delegate has been given it.
    public var response: Response? { state.withLock { $0.response } }

    /// True once the connection has ended or was cancelled.
    public var isDone: Bool { state.withLock { $0.phase == .finished || $0.phase == .cancelled } }

    // MARK: - Delivery

    /// Runs `message` on the delegate queue if the connection is still running then.
    func deliver(holding batch: DeliveryBatch? = nil, _ message: @escaping @Sendable (any ConnectionDelegate) -> Void) {
        delivery.submit(holding: batch) { [self] in
            guard let delegate = state.withLock({ $0.phase == .running ? $0.delegate : nil }) else { return }
            message(delegate)
        }
    }

    /// Runs the ending `message`, after which nothing more is delivered.
    func deliverEnding(
        holding batch: DeliveryBatch? = nil, _ message: @escaping @Sendable (any ConnectionDelegate) -> Void
    ) {
        delivery.submit(holding: batch) { [self] in
            let delegate = state.withLock { state -> (any ConnectionDelegate)? in
                guard state.phase == .running else { return nil }
                state.phase = .finished
                defer { state.delegate = nil }
                return state.delegate
            }
            if let delegate { message(delegate) }
        }
    }

    // MARK: - Engine side

    /// `deliver`, held for the end of the engine loop's turn (`DeliveryBatch`). Engine thread.
    private func engineDeliver(_ message: @escaping @Sendable (any ConnectionDelegate) -> Void) {
        deliver(holding: engine.deliveries, message)
    }

    /// `deliverEnding`, held for the end of the engine loop's turn. Engine thread.
    private func engineDeliverEnding(_ message: @escaping @Sendable (any ConnectionDelegate) -> Void) {
        deliverEnding(holding: engine.deliveries, message)
    }

    /// Tells the delegate that the hop to `url` goes over a connection that agreed on HTTP/2.
    func engineReportMultiplexing(_ url: URL) {
        engineDeliver { [self] delegate in delegate.connection(self, didNegotiateMultiplexingWith: url) }
    }

    /// Asks the delegate whether to follow a redirect; `reply` runs on the delegate queue.
    func engineAskRedirect(_ request: Request, response: Response, reply: @escaping @Sendable (Request?) -> Void) {
        engineDeliver { [self] delegate in
            let answer = delegate.connection(self, willSend: request, redirectResponse: response)
            if let answer { state.withLock { $0.currentRequest = answer } }
            reply(answer)
        }
    }

    /// Asks the delegate how to answer a server's demand for credentials; `reply` runs on the
    /// delegate queue (not called if the connection is cancelled first).
    func engineAskChallenge(
        _ challenge: AuthenticationChallenge, reply: @escaping @Sendable (ChallengeDisposition) -> Void
    ) {
        engineDeliver { [self] delegate in
            reply(delegate.connection(self, didReceive: challenge))
        }
    }

    /// Hands the delegate the final response; `reply` gets its disposition (not called if the
    /// connection is cancelled first). A 304 confirming the stored response the cache asked
    /// about is replaced by that response and its stored body.
    func engineDeliverResponse(_ response: Response, reply: @escaping @Sendable (ResponseDisposition) -> Void) {
        // A response starts its body's count afresh (the next part of a multipart stream
        // replaces the last one's bytes).
        state.withLock { $0.written = Progress() }
        engineDeliver { [self] delegate in
            guard let confirmed = caching?.received(response, for: currentRequest) else {
                reply(present(response, to: delegate))
                return
            }
            let disposition = present(confirmed.response, to: delegate)
            deliverCachedBody(confirmed.data, as: disposition, finishing: false)
            // The 304 itself has no body; the engine ends the load when it is complete.
            reply(disposition == .cancel ? .cancel : .allow)
        }
    }

    /// Gives the delegate the final response and returns its disposition (on the delegate queue).
    private func present(_ response: Response, to delegate: any ConnectionDelegate) -> ResponseDisposition {
        state.withLock { $0.response = response }
        let disposition = delegate.connection(self, didReceive: response)
        caching?.dispositionChosen(disposition)
        if disposition == .cancel { cancel() }
        return disposition
    }

    /// Queues body bytes for the delegate. Returns false, keeping nothing, when the delegate
    /// is `deliveryHighWater` behind: the engine then pauses receiving until
    /// `ConnectionEngine.Command.resumeReceiving` comes back from the delegate queue.
    func engineEnqueueData(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let (accepted, schedule) = state.withLock { state -> (Bool, Bool) in
            guard state.phase == .running else { return (true, false) }
            if state.pendingData.count >= Connection.deliveryHighWater {
                state.receivingPaused = true
                return (false, false)
            }
            state.pendingData.append(bytes.assumingMemoryBound(to: UInt8.self))
            defer { state.dataScheduled = true }
            return (true, !state.dataScheduled)
        }
        if schedule { engineDeliver { [self] delegate in deliverPendingData(to: delegate) } }
        return accepted
    }

    private func deliverPendingData(to delegate: any ConnectionDelegate) {
        let (data, resume) = state.withLock { state -> (Data, Bool) in
            let data = state.pendingData
            state.pendingData = Data()
            state.dataScheduled = false
            defer { state.receivingPaused = false }
            return (data, state.receivingPaused)
        }
        if resume { engine.submit(.resumeReceiving(id)) }
        guard !data.isEmpty else { return }
        caching?.delivered(data)
        delegate.connection(self, didReceive: data)
    }

    /// Adds request-body progress; the delegate gets it coalesced.
    func engineReportSent(_ bytes: Int64, expected: Int64) {
        reportProgress(\.sent, bytes, expected: expected) { connection, delegate, progress in
            delegate.connection(
                connection, didSendBodyData: progress.bytes, totalBytesWritten: progress.total,
                totalBytesExpectedToWrite: progress.expected)
        }
    }

    /// Adds download-file progress; the delegate gets it coalesced.
    func engineReportWritten(_ bytes: Int64, expected: Int64) {
        reportProgress(\.written, bytes, expected: expected) { connection, delegate, progress in
            delegate.connection(
                connection, didWriteData: progress.bytes, totalBytesWritten: progress.total,
                totalBytesExpectedToWrite: progress.expected)
        }
    }

    /// Restarts the upload count (the body is being sent again).
    func engineResetSent() {
        state.withLock { $0.sent.total = 0 }
    }

    private func reportProgress(
        _ keyPath: WritableKeyPath<State, Progress> & Sendable, _ bytes: Int64,
        expected: Int64,
        send: @escaping @Sendable (Connection, any ConnectionDelegate, Progress) -> Void
    ) {
        let schedule = state.withLock { state -> Bool in
            state[keyPath: keyPath].bytes += bytes
            state[keyPath: keyPath].total += bytes
            state[keyPath: keyPath].expected = expected
            defer { state[keyPath: keyPath].scheduled = true }
            return !state[keyPath: keyPath].scheduled
        }
        guard schedule else { return }
        engineDeliver { [self] delegate in
            let progress = state.withLock { state -> Progress in
                let progress = state[keyPath: keyPath]
                state[keyPath: keyPath].bytes = 0
                state[keyPath: keyPath].scheduled = false
                return progress
            }
            if progress.bytes > 0 { send(self, delegate, progress) }
        }
    }

    /// The body is complete in the download file at `path`.
    func engineFinishDownload(path: String) {
        engineDeliver { [self] delegate in delegate.connection(self, didFinishDownloadingTo: path)
        }
    }

    /// Offers a response that may be stored to the delegate, after its data and before the
    /// finish, then ends the load.
    func engineFinish() {
        if let caching {
            engineDeliver { [self] delegate in offer(to: caching, delegate: delegate) }
        }
        engineDeliverEnding { [self] delegate in delegate.connectionDidFinishLoading(self) }
    }

    func engineFail(_ error: ConnectionError) {
        engineDeliverEnding { [self] delegate in
            delegate.connection(self, didFailWithError: error)
        }
    }
}
