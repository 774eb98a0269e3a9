import Dispatch
import Foundation
import Synchronization

// MARK: - DelegateQueue

/// A place where delegate messages run: a `DispatchQueue` or an `OperationQueue`. A class, so
/// the engine groups a turn's messages by queue with an identity check, not a cast per message.
///
/// A connection never hands a queue two of its messages at once: it keeps its own FIFO and
/// gives the queue the next message only when the previous one has returned, so messages run
/// one at a time and in order even on a concurrent queue.
public protocol DelegateQueue: AnyObject, Sendable {
    /// Runs `work` on this queue, asynchronously.
    ///
    /// - Parameter work: The message to run; it runs once.
    func enqueue(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: DelegateQueue {
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}

extension OperationQueue: DelegateQueue {
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        addOperation(work)
    }
}

// MARK: - SerialDelivery

/// One connection's FIFO of delegate messages in front of its `DelegateQueue`.
///
/// Thread-safe: `submit` may be called from any thread (the engine thread, the delegate queue).
final class SerialDelivery: Sendable {
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var draining = false
    }

    let queue: any DelegateQueue
    private let state = Mutex(State())

    init(queue: any DelegateQueue) {
        self.queue = queue
    }

    /// Appends `work`; it runs on the queue after every earlier submission has returned. With
    /// a `batch` (the engine thread's), the queue gets the drain when the batch is released.
    func submit(holding batch: DeliveryBatch? = nil, _ work: @escaping @Sendable () -> Void) {
        let startDrain = state.withLock { state in
            // Room for a small file's four messages at once, not grown from one.
            if state.pending.isEmpty { state.pending.reserveCapacity(4) }
            state.pending.append(work)
            if state.draining { return false }
            state.draining = true
            return true
        }
        guard startDrain else { return }
        if let batch {
            batch.hold(self)
        } else {
            queue.enqueue { [self] in drain() }
        }
    }

    /// Runs every pending message, in order, until none is left (on the queue).
    func drain() {
        while true {
            let batch = state.withLock { state -> [@Sendable () -> Void] in
                if state.pending.isEmpty {
                    state.draining = false
                    return []
                }
                defer { state.pending.removeAll(keepingCapacity: true) }
                return state.pending
            }
            if batch.isEmpty { return }
            for work in batch { work() }
        }
    }
}
