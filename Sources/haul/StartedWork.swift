import Dispatch
import Synchronization

// MARK: - StartedWork

/// Work started at once and waited for later by a command's synchronous `run`, which owns the
/// main thread and does other work meanwhile: as `haul get` starts, one core opens the queue's
/// store while the other reads the queue file. Async work (an RPC call) runs in a task, which
/// the main thread may wait for: it never runs on the cooperative pool, so the wait cannot
/// starve the task.
///
/// **Threading:** synchronous work runs on a global queue, async work in a task;
/// `outcome()` and `value()` may be called from any thread, any number of times.
final class StartedWork<Value: Sendable, Failure: Error>: Sendable {
    private let ended = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Value, Failure>?>(nil)

    /// Starts `work` on a global queue.
    init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            end(with: Result(catching: work))
        }
    }

    /// Does `work` at once, on the calling thread: for work too short to be worth a thread.
    init(here work: () throws(Failure) -> Value) {
        end(with: Result(catching: work))
    }

    /// Starts `work` in a task.
    init(async work: @escaping @Sendable () async throws(Failure) -> Value) {
        Task { [self] in
            let outcome: Result<Value, Failure>
            do throws(Failure) {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            end(with: outcome)
        }
    }

    private func end(with outcome: Result<Value, Failure>) {
        result.withLock { $0 = outcome }
        ended.signal()
    }

    /// What the work returned or threw, once it has ended.
    func outcome() -> Result<Value, Failure> {
        ended.wait()
        // For the next caller.
        ended.signal()
        // Set before the signal.
        guard let outcome = result.withLock({ $0 }) else { preconditionFailure("the work ended without a result") }
        return outcome
    }

    /// What the work returned, once it has ended; what it threw is thrown.
    func value() throws(Failure) -> Value {
        try outcome().get()
    }
}
