import Dispatch
import Synchronization

// MARK: - AwaitedResult

/// The result of async work, waited for by a command's synchronous `run` (which owns the main
/// thread and never runs on the cooperative pool, so waiting cannot starve the work).
enum AwaitedResult {
    static func of<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Result<Value, Failure> {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Value, Failure>?>(nil)
        Task {
            let outcome: Result<Value, Failure>
            do throws(Failure) {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        // Set before the signal.
        guard let outcome = result.withLock({ $0 }) else { preconditionFailure("the task ended without a result") }
        return outcome
    }
}
