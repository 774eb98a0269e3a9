import Testing

@testable import HaulCore

/// The debug check behind "no store or file work under the queue's lock": every store write
/// and every file naming asks it, so the whole suite running without a trap is the proof.
@Suite("State lock marker")
struct StateLockMarkerTests {
    @Test("work that must not run under the lock traps when it does, and runs when it does not")
    func traps() async {
        StateLockMarker.assertNotHeld("outside the lock")
        await #expect(processExitsWith: .failure) {
            StateLockMarker.holding { StateLockMarker.assertNotHeld("a write to the store") }
        }
    }
}
