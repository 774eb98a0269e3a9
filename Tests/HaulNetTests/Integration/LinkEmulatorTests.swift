import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// The link emulator itself: it forwards, caps, delays, stalls and drops as it says, and counts.
@Suite("Link emulator")
struct LinkEmulatorTests {
    private func through(_ shape: LinkEmulator.Shape) throws -> LinkEmulator {
        try LinkEmulator(targetPort: try FaultServer.shared().port, shape: shape)
    }

    @Test("with no shape it forwards a large body whole over one counted connection")
    func plain() async throws {
        let link = try through(LinkEmulator.Shape())
        defer { link.shutdown() }
        let delegate = await load(Request(url: try #require(URL(string: link.url("/huge/67108864", scheme: "http")))))
        #expect(delegate.events.last == .finished)
        #expect(delegate.body.count == 67_108_864 && TestPattern.matches(delegate.body))
        #expect(link.connections.accepted == 1)
    }

    @Test("a cap per connection and a one-way delay cost what they say")
    func capAndDelay() async throws {
        let capped = try through(LinkEmulator.Shape(bytesPerSecond: 2 << 20))
        defer { capped.shutdown() }
        let clock = ContinuousClock()
        let start = clock.now
        let body = await load(Request(url: try #require(URL(string: capped.url("/bytes/1048576", scheme: "http")))))
        let cappedTime = clock.now - start
        #expect(body.body.count == 1_048_576)
        // 1 MiB at 2 MiB/s: half a second at the least (longer on a loaded machine).
        #expect(cappedTime >= .milliseconds(400), "\(cappedTime)")

        let delayed = try through(LinkEmulator.Shape(oneWayDelayMilliseconds: 100))
        defer { delayed.shutdown() }
        let again = clock.now
        let small = await load(Request(url: try #require(URL(string: delayed.url("/bytes/10", scheme: "http")))))
        let roundTrip = clock.now - again
        #expect(small.body.count == 10)
        #expect(roundTrip >= .milliseconds(200), "\(roundTrip)")
    }

    @Test("a drop after N bytes loses the connection; a stall after N bytes times out")
    func dropAndStall() async throws {
        let dropping = try through(LinkEmulator.Shape(dropAfter: 5000))
        defer { dropping.shutdown() }
        let dropped = await load(Request(url: try #require(URL(string: dropping.url("/bytes/100000", scheme: "http")))))
        #expect(dropped.events.last == .failed(.connectionLost))
        #expect(dropped.body.count < 5000)

        let stalling = try through(LinkEmulator.Shape(stallAfter: 5000))
        defer { stalling.shutdown() }
        var request = Request(url: try #require(URL(string: stalling.url("/bytes/100000", scheme: "http"))))
        request.timeoutInterval = 2
        let stalled = await load(request)
        #expect(stalled.events.last == .failed(.timedOut))
    }
}
