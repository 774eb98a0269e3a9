import Foundation

// MARK: - ThreadMarker

/// A flag each thread has its own value of, for the debug checks of threading contracts (the
/// engine thread, a queue's lock): set and read on the current thread. Debug builds keep it;
/// release builds keep nothing and read it as never set.
package struct ThreadMarker: Sendable {
    #if DEBUG
        private let key: pthread_key_t
    #endif

    package init() {
        #if DEBUG
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            self.key = key
        #endif
    }

    /// Sets or clears the flag of the current thread.
    package func mark(_ isSet: Bool) {
        #if DEBUG
            pthread_setspecific(key, isSet ? UnsafeRawPointer(bitPattern: 1) : nil)
        #endif
    }

    /// Whether the current thread's flag is set (never, in release builds).
    package var isMarked: Bool {
        #if DEBUG
            return pthread_getspecific(key) != nil
        #else
            return false
        #endif
    }
}
