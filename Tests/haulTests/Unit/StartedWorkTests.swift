import Dispatch
import Foundation
import Synchronization
import Testing

@testable import haul

/// Work started on another thread and waited for later: `haul get` opens its store this way
/// while it reads the queue file.
@Suite("Started work")
struct StartedWorkTests {
    struct Refused: Error, Equatable {}

    @Test("the work runs on another thread while this one goes on; value() waits for it")
    func runsMeanwhile() throws {
        let release = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        let sameThread = Mutex<Bool?>(nil)
        let work = StartedWork { () -> Int in
            sameThread.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            // Ends once the caller has gone on past the start (work run in place would wait
            // here in vain, for 5 s, and be found on the caller's thread).
            let released = release.wait(timeout: .now() + 5) == .success
            return released ? 42 : -1
        }
        release.signal()
        #expect(work.value() == 42)
        #expect(sameThread.withLock { $0 } == false)
    }

    @Test("its error is thrown by every value(), and a value is given to every caller")
    func everyCallerGetsTheOutcome() throws {
        let failing = StartedWork { () throws -> Int in throw Refused() }
        #expect(throws: Refused.self) { try failing.value() }
        #expect(throws: Refused.self) { try failing.value() }
        let giving = StartedWork { "store" }
        #expect(giving.value() == "store")
        #expect(giving.value() == "store")
    }
}
