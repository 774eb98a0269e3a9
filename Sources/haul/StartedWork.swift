import Dispatch
import Synchronization

// MARK: - StartedWork

/// Synchronous work started on another thread at once and waited for later, so that the main
/// thread does other work meanwhile: as `haul get` starts, one core opens the queue's store
/// while the other reads the queue file.
///
/// **Threading:** the work runs on a global queue; `value()` may be called from any thread,
/// any number of times.
final class StartedWork<Value: Sendable>: Sendable {
    private let ended = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Value, any Error>?>(nil)

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result(catching: work)
            outcome.withLock { $0 = result }
            ended.signal()
        }
    }

    /// What the work returned or threw, once it has ended.
    func value() throws -> Value {
        ended.wait()
        // For the next caller.
        ended.signal()
        // Set before the signal.
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("the work ended without a result") }
        return try result.get()
    }
}
