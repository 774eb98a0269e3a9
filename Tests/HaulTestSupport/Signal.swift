import Synchronization

// MARK: - Signal

/// A one-shot event a test awaits: `fire()` from any thread, `wait(seconds:)` in the test.
/// The time limit only keeps a broken build from hanging the suite; it is never the
/// synchronisation.
public final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public var hasFired: Bool { state.withLock { $0.fired } }

    /// True when the signal fired within `seconds`.
    public func wait(seconds: Double = 30) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let fired = self.state.withLock { state -> Bool in
                        if !state.fired { state.waiters.append(continuation) }
                        return state.fired
                    }
                    if fired { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { fire() }
            return first
        }
    }
}
