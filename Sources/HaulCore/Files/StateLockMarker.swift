import HaulNet

// MARK: - StateLockMarker

/// Marks the thread holding a `DownloadQueue`'s state lock, in debug builds, so that work which
/// must never run under it (the store's writes, naming files) checks that it does not, as
/// swift-nio's `preconditionInEventLoop` checks its threads. Release builds mark nothing.
enum StateLockMarker {
    private static let marker = ThreadMarker()

    /// Runs `body` with this thread marked as holding the lock.
    static func holding<Result>(_ body: () -> Result) -> Result {
        marker.mark(true)
        defer { marker.mark(false) }
        return body()
    }

    /// Traps, in debug builds, when this thread holds a queue's state lock: `work` (the store, the
    /// file system) would make every command wait on it.
    static func assertNotHeld(_ work: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            precondition(!marker.isMarked, "\(work()) under the queue's lock", file: file, line: line)
        #endif
    }
}
