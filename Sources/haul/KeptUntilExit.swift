import Synchronization

// MARK: - KeptUntilExit

/// Objects a command leaves to the process's exit rather than to their deinit (part of haul's
/// process tuning, see `ProcessTuning`): `haul get`'s queue, whose downloads, answers and
/// activity take a while to free after a long run, memory the exit gives back at once. Only
/// for objects whose deinit does nothing the exit does not do (memory, descriptors): a queue's
/// store is written before
/// (`StoredQueue.finish`), and its database file is left as any run killed at that point leaves
/// it, complete in its write-ahead log.
///
/// **Threading:** `keep` from any thread.
enum KeptUntilExit {
    private static let objects = Mutex<[any AnyObject & Sendable]>([])

    /// Keeps `object` alive until the process exits.
    static func keep(_ object: any AnyObject & Sendable) {
        objects.withLock { $0.append(object) }
    }
}
