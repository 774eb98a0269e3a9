import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

// MARK: - Loading helpers

/// Starts `request` with a fresh `RecordingDelegate` on a serial queue and waits for its ending.
@discardableResult
func load(
    _ request: Request,
    redirectDecision: @escaping @Sendable (Request, Response) -> Request? = { request, _ in request },
    disposition: @escaping @Sendable (Response) -> ResponseDisposition = { _ in .allow },
    challengeDecision: @escaping @Sendable (AuthenticationChallenge) -> ChallengeDisposition = { _ in
        .performDefaultHandling
    },
    onEvent: @escaping @Sendable (Connection, RecordingDelegate.Event) -> Void = { _, _ in }
)
    async -> RecordingDelegate
{
    let queue = TestQueue()
    let delegate = RecordingDelegate(
        onQueue: queue.isCurrent, redirectDecision: redirectDecision,
        disposition: disposition, challengeDecision: challengeDecision, onEvent: onEvent)
    Connection(request: request, delegate: delegate, queue: queue.queue).start()
    #expect(await delegate.ended.wait(), "the connection never ended: \(delegate.events)")
    return delegate
}

/// A GET of `path` on the shared fault server.
func request(_ path: String) throws -> Request {
    Request(url: try FaultServer.shared().url(path))
}

/// Returns once the engine and `queue` have handled everything submitted before the call:
/// a fresh load on the same engine and queue runs to its end.
func barrier(queue: DispatchQueue, engine: ConnectionEngine = .shared) async throws {
    let delegate = RecordingDelegate(onQueue: { true })
    Connection(request: try request("/bytes/1"), delegate: delegate, queue: queue, engine: engine).start()
    #expect(await delegate.ended.wait())
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
}
