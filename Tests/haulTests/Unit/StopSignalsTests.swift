import Dispatch
import Foundation
import Testing

@testable import haul

/// A stop signal sent the moment `StopSignals.handle` returns is heard: libdispatch's handler is
/// in place by then, not still on its way while the signal is ignored.
@Suite("Stop signals")
struct StopSignalsTests {
    @Test("a signal sent as soon as the handler is set runs it")
    func heardAtOnce() {
        // Once a process: libdispatch keeps its handler for a signal it has heard before.
        let heard = DispatchSemaphore(value: 0)
        let sources = StopSignals.handle([SIGUSR2]) { heard.signal() }
        kill(getpid(), SIGUSR2)
        #expect(heard.wait(timeout: .now() + 5) == .success)
        withExtendedLifetime(sources) {}
    }
}
