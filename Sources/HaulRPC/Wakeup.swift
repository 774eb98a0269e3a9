import Synchronization

// MARK: - Wakeup

/// A wait that ends after a time or at a signal, whichever comes first; a signal while no one
/// waits ends the next wait at once (signals in between count as one). After `close`, every
/// wait ends at once.
///
/// It replaces an `AsyncStream` of signals, whose iterator ends for good when the task awaiting
/// it is cancelled: the first wait that timed out made every later one end at once, and an
/// attached UI polled its daemon thousands of times a second.
///
/// **Threading:** `signal` and `close` from any thread; one waiter at a time.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var closed = false
        /// The waiter, and the number of its wait (a timer of an earlier wait wakes no later one).
        var waiter: (number: Int, continuation: CheckedContinuation<Void, Never>)?
        var waits = 0
    }

    private let state = Mutex(State())

    /// Ends the current wait, or the next one when no one waits.
    func signal() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Ends the current wait and every later one at once.
    func close() {
        state.withLock { $0.closed = true }
        signal()
    }

    /// Returns after `timeout`, at a signal, or at once when one came since the last wait.
    func wait(upTo timeout: Duration) async {
        let number = state.withLock { state in
            state.waits += 1
            return state.waits
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.end(number)
        }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard !state.pending, !state.closed, state.waits == number else {
                    state.pending = false
                    return true
                }
                state.waiter = (number, continuation)
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }

    /// Wait `number`'s time is up: ends it if it is still waiting. A timer that fires before its
    /// wait began leaves the wait number behind, so that the wait does not begin.
    private func end(_ number: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                if state.waits == number { state.waits += 1 }
                return nil
            }
            guard waiter.number == number else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}
