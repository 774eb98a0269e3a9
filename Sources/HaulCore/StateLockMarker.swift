import Foundation

// MARK: - StateLockMarker

/// Marks the thread holding a `DownloadQueue`'s state lock, in debug builds, so that work which
/// must never run under it (the store's writes, naming files) checks that it does not, as
/// swift-nio's `preconditionInEventLoop` checks its threads. Release builds mark nothing.
enum StateLockMarker {
    #if DEBUG
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            return key
        }()
    #endif

    /// Runs `body` with this thread marked as holding the lock.
    static func holding<Result>(_ body: () -> Result) -> Result {
        #if DEBUG
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
            defer { pthread_setspecific(key, nil) }
        #endif
        return body()
    }

    /// Traps, in debug builds, when this thread holds a queue's state lock: `work` (the store, the
    /// file system) would make every command wait on it.
    static func assertNotHeld(_ work: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            precondition(pthread_getspecific(key) == nil, "\(work()) under the queue's lock", file: file, line: line)
        #endif
    }
}
