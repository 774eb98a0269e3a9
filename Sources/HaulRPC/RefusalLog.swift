import Synchronization

// MARK: - RefusalLog

/// What the daemon refused, said once a kind: a refused Origin, Host, secret or option becomes
/// one log line saying what was refused and how to allow it, the first time it is seen (a
/// client that keeps trying, or an attacker, does not fill the log). Any thread.
package final class RefusalLog: Sendable {
    private let write: @Sendable (String) -> Void
    private let said = Mutex<Set<String>>([])
    /// The most distinct lines remembered; past it, the memory starts over.
    private static let remembered = 256

    /// Writes each line through `write` (the daemon's log).
    package init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Says `line` unless it was said already.
    package func refused(_ line: String) {
        let isNew = said.withLock { said in
            if said.count >= RefusalLog.remembered { said.removeAll() }
            return said.insert(line).inserted
        }
        if isNew { write(line) }
    }
}
