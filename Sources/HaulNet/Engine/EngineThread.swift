// MARK: - EngineThread

/// Marks engine threads, in debug builds, so the code that must run on one (a `Transfer`, the
/// `EngineLoop`, libcurl's callbacks) checks that it does, as swift-nio's
/// `preconditionInEventLoop` does. Release builds check nothing.
enum EngineThread {
    private static let marker = ThreadMarker()

    /// Marks the calling thread as an engine thread, for as long as it lives.
    static func enter() {
        marker.mark(true)
    }

    /// Traps, in debug builds, when the caller is not on an engine thread.
    static func precondition(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            Swift.precondition(marker.isMarked, "not on the engine thread", file: file, line: line)
        #endif
    }
}
