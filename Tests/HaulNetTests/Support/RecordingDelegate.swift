import Dispatch
import Foundation
import HaulTestSupport
import Synchronization

@testable import HaulNet

// MARK: - RecordingDelegate

/// A delegate that records every message, checks it runs on the expected queue and never
/// concurrently with another, and answers redirects and responses as the test says.
final class RecordingDelegate: ConnectionDelegate {
    enum Event: Equatable, Sendable {
        case redirect(to: String, status: Int)
        case challenge(status: Int, previousFailures: Int)
        /// `didNegotiateMultiplexingWith`, with the hop URL's host and port.
        case multiplexing(String)
        case response(Int)
        case data(Int)
        case sent(total: Int64, expected: Int64)
        case written(total: Int64)
        case downloaded(String)
        /// `willCacheResponse`, with the offered body's length.
        case willCache(Int)
        case finished
        case failed(ConnectionError.Kind)

        var isEnding: Bool {
            switch self {
            case .finished, .failed: true
            default: false
            }
        }
    }

    struct Record {
        var events: [Event] = []
        var body = Data()
        var error: ConnectionError?
        var response: Response?
        var wrongQueue = 0
        var overlapping = 0
        var inFlight = 0
    }

    let record = Mutex(Record())
    let ended = Signal()
    private let onQueue: @Sendable () -> Bool
    private let redirectDecision: @Sendable (Request, Response) -> Request?
    private let disposition: @Sendable (Response) -> ResponseDisposition
    private let challengeDecision: @Sendable (AuthenticationChallenge) -> ChallengeDisposition
    private let cacheDecision: @Sendable (CachedResponse) -> CachedResponse?
    private let onEvent: @Sendable (Connection, Event) -> Void

    init(
        onQueue: @escaping @Sendable () -> Bool,
        redirectDecision: @escaping @Sendable (Request, Response) -> Request? = { request, _ in request },
        disposition: @escaping @Sendable (Response) -> ResponseDisposition = { _ in .allow },
        challengeDecision: @escaping @Sendable (AuthenticationChallenge) -> ChallengeDisposition = { _ in
            .performDefaultHandling
        },
        cacheDecision: @escaping @Sendable (CachedResponse) -> CachedResponse? = { $0 },
        onEvent: @escaping @Sendable (Connection, Event) -> Void = { _, _ in }
    ) {
        self.onQueue = onQueue
        self.challengeDecision = challengeDecision
        self.cacheDecision = cacheDecision
        self.redirectDecision = redirectDecision
        self.disposition = disposition
        self.onEvent = onEvent
    }

    var events: [Event] { record.withLock { $0.events } }
    var body: Data { record.withLock { $0.body } }
    var error: ConnectionError? { record.withLock { $0.error } }

    // MARK: - Recording

    private func note(_ connection: Connection, _ event: Event, _ update: (inout Record) -> Void = { _ in }) {
        let onQueue = onQueue()
        record.withLock { record in
            record.inFlight += 1
            if record.inFlight > 1 { record.overlapping += 1 }
            if !onQueue { record.wrongQueue += 1 }
            record.events.append(event)
            update(&record)
        }
        onEvent(connection, event)
        record.withLock { $0.inFlight -= 1 }
        if event.isEnding { ended.fire() }
    }

    // MARK: - ConnectionDelegate

    func connection(_ connection: Connection, willSend request: Request, redirectResponse: Response?) -> Request? {
        note(connection, .redirect(to: request.url.path, status: redirectResponse?.statusCode ?? 0))
        return redirectDecision(request, redirectResponse ?? Response(url: request.url, statusCode: 0))
    }

    func connection(_ connection: Connection, didReceive challenge: AuthenticationChallenge) -> ChallengeDisposition {
        note(
            connection,
            .challenge(status: challenge.response.statusCode, previousFailures: challenge.previousFailureCount))
        return challengeDecision(challenge)
    }

    func connection(_ connection: Connection, didNegotiateMultiplexingWith url: URL) {
        note(connection, .multiplexing("\(url.host ?? ""):\(url.port ?? 443)"))
    }

    func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        note(connection, .response(response.statusCode)) { $0.response = response }
        return disposition(response)
    }

    func connection(_ connection: Connection, didReceive data: Data) {
        note(connection, .data(data.count)) { $0.body.append(data) }
    }

    func connection(
        _ connection: Connection, didSendBodyData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        note(connection, .sent(total: totalBytesWritten, expected: totalBytesExpectedToWrite))
    }

    func connection(
        _ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        note(connection, .written(total: totalBytesWritten))
    }

    func connection(_ connection: Connection, didFinishDownloadingTo path: String) {
        note(connection, .downloaded(path))
    }

    func connection(_ connection: Connection, willCacheResponse cachedResponse: CachedResponse) -> CachedResponse? {
        note(connection, .willCache(cachedResponse.data.count))
        return cacheDecision(cachedResponse)
    }

    func connectionDidFinishLoading(_ connection: Connection) {
        note(connection, .finished)
    }

    func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        note(connection, .failed(error.kind)) { $0.error = error }
    }
}

// MARK: - Contract order

extension RecordingDelegate {
    /// Nil when the events keep the contract's order: redirects (and HTTP/2 agreements), then
    /// responses, then data
    /// (or download progress), then at most one offer to the cache, then at most one ending, and
    /// nothing after it. Otherwise why not.
    static func orderViolation(_ events: [Event]) -> String? {
        var stage = 0  // 0 redirects, 1 responses/data, 2 ended
        var sawResponse = false
        var offered = false
        for (index, event) in events.enumerated() {
            if stage == 2 { return "event \(index) (\(event)) after the ending" }
            switch event {
            case .redirect:
                if stage > 0 { return "redirect at \(index) after a response" }
            case .challenge:
                if sawResponse { return "challenge at \(index) after a response" }
            case .multiplexing:
                if sawResponse { return "multiplexing at \(index) after a response" }
            case .response:
                if offered { return "response at \(index) after the offer to the cache" }
                stage = 1
                sawResponse = true
            case .data, .written, .downloaded:
                if !sawResponse { return "\(event) at \(index) before any response" }
                if offered { return "\(event) at \(index) after the offer to the cache" }
            case .willCache:
                if !sawResponse || offered { return "offer to the cache at \(index) before any response, or again" }
                offered = true
            case .sent:
                break
            case .finished, .failed:
                stage = 2
            }
        }
        return nil
    }
}

// MARK: - Queues

/// A serial dispatch queue that can tell whether the current code runs on it.
struct TestQueue {
    let queue: DispatchQueue
    let isCurrent: @Sendable () -> Bool

    init(label: String = "test.delegate") {
        let queue = DispatchQueue(label: label)
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        self.queue = queue
        isCurrent = { DispatchQueue.getSpecific(key: key) == true }
    }
}
