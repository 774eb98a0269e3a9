import Synchronization

// MARK: - DeliveryBatch

/// The delegate messages the engine thread posts in one turn of its loop, handed to their
/// queues when the turn ends: one wake-up of a delegate queue per turn, not one per message.
/// A thousand small files make four messages each; waking the queue for each cost the engine
/// thread more than their transfers.
///
/// **Threading:** `hold` on the engine thread, during a turn; `release` on the engine thread,
/// before the loop waits. Only the engine thread takes the lock (it makes the batch `Sendable`
/// for the engine that owns it), and never across a delegate message.
final class DeliveryBatch: Sendable {
    private let held = Mutex<[SerialDelivery]>([])

    /// Keeps `delivery`'s drain for the end of the turn (it has messages waiting).
    func hold(_ delivery: SerialDelivery) {
        EngineThread.precondition()
        held.withLock { $0.append(delivery) }
    }

    /// Hands every held drain to its queue: one block per queue, draining them in the order
    /// they were held.
    func release() {
        EngineThread.precondition()
        let deliveries = held.withLock { held in
            defer { held.removeAll(keepingCapacity: true) }
            return held
        }
        guard !deliveries.isEmpty else { return }
        var groups: [(queue: any DelegateQueue, deliveries: [SerialDelivery])] = []
        for delivery in deliveries {
            if let index = groups.firstIndex(where: { $0.queue === delivery.queue }) {
                groups[index].deliveries.append(delivery)
            } else {
                groups.append((delivery.queue, [delivery]))
            }
        }
        for group in groups {
            let drains = group.deliveries
            group.queue.enqueue {
                for delivery in drains { delivery.drain() }
            }
        }
    }
}
