import Dispatch
import Glibc

// MARK: - StopSignals

/// Turns signals that ask haul to stop (Ctrl-C, SIGTERM…) into a handler run on a global
/// queue, so the queue can be saved and the terminal restored before exiting. The returned
/// sources must be kept alive while the handler should run.
enum StopSignals {
    static func handle(_ signals: [Int32], _ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}
