import Dispatch
import Glibc

// MARK: - StopSignals

/// Turns signals that ask haul to stop (Ctrl-C, SIGTERM…) into a handler run on a global
/// queue, so the queue can be saved and the terminal restored before exiting. The returned
/// sources must be kept alive while the handler should run.
enum StopSignals {
    /// Returns once libdispatch hears the signals: a signal sent after that runs `handler`.
    static func handle(_ signals: [Int32], _ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            waitUntilHeard(signalNumber)
            return source
        }
    }

    /// libdispatch installs its own handler for a signal source on its manager thread, some
    /// time after `resume`; until then the signal is ignored, and one sent meanwhile (a service
    /// manager stopping the daemon as soon as it says it listens) was lost. Waits for that
    /// handler, at most a second.
    private static func waitUntilHeard(_ signalNumber: Int32) {
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        for _ in 0..<10_000 {
            var action = sigaction()
            guard sigaction(signalNumber, nil, &action) == 0 else { return }
            let current = action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
            if current != ignored { return }
            usleep(100)
        }
    }
}
