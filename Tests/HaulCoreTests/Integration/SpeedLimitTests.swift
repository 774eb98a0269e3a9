import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// The global speed limit is shared fairly, and a row's speed is what is happening now.
@Suite("Shared speed limit and shown speeds", .serialized)
struct SpeedLimitTests {
    @Test("a global limit over three downloads gives each a fair share; none starves")
    func fairShare() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let engine = ConnectionEngine()
        defer { engine.shutdown() }
        let queue = DownloadQueue(configuration: harness.queue.configuration, engine: engine) {
            harness.recorder.record($0)
        }
        queue.setMaxOverallDownloadLimit(1 << 20)
        let server = try FaultServer.shared()
        let ids = (0..<3).map { index in
            queue.add(QueueEntry(uris: [server.url("/huge/100000000?n=\(index)").absoluteString]))
        }
        // About three seconds at 1 MiB/s in all.
        #expect(
            await harness.recorder.wait(untilLatest: { latest in
                ids.compactMap { latest[$0]?.bytesDone }.reduce(0, +) >= 3 << 20
            }))
        let received = ids.map { harness.recorder.latest($0)?.bytesDone ?? 0 }
        let total = received.reduce(0, +)
        for bytes in received { #expect(bytes >= total / 6, "\(received)") }
        for id in ids { queue.cancel(id) }
    }

    @Test("a download that stops receiving shows a speed of 0 within about a second, not its last speed")
    func stalledSpeed() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let id = try harness.add(server.url("/file/4000000?key=\(UUID())&trickle=100000&stallafter=1500000"))
        // Any event since the start counts: a loaded machine may wake this test after the stall.
        #expect(await harness.recorder.wait(after: 0, for: id, until: { $1.speed > 0 && $0.bytesDone > 0 }))
        let mark = harness.recorder.eventCount
        #expect(await harness.recorder.wait(after: mark, for: id, until: { $0.state == .active && $1.speed == 0 }))
        harness.queue.cancel(id)
    }
}
