import Foundation

// MARK: - EngineThread

/// Marks engine threads, in debug builds, so the code that must run on one (a `Transfer`, the
/// `EngineLoop`, libcurl's callbacks) checks that it does, as swift-nio's
/// `preconditionInEventLoop` does. Release builds check nothing.
enum EngineThread {
    #if DEBUG
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            return key
        }()
    #endif

    /// Marks the calling thread as an engine thread, for as long as it lives.
    static func enter() {
        #if DEBUG
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        #endif
    }

    /// Traps, in debug builds, when the caller is not on an engine thread.
    static func precondition(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            Swift.precondition(pthread_getspecific(key) != nil, "not on the engine thread", file: file, line: line)
        #endif
    }
}
