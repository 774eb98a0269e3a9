import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// Many small files from one HTTP/2 server over a link with latency: once the server answers
/// over HTTP/2, queued downloads go out as further streams of its connection, beyond -j, so the
/// round trips overlap; every file is still saved whole, the safe way.
@Suite("Small files as HTTP/2 streams", .serialized)
struct StreamsOverLinkTests {
    @Test("200 small files at -j 4 over a 50 ms link: many in flight on one or two connections, every file whole")
    func streamsInFlight() async throws {
        let count = 200
        var files: [String: [UInt8]] = [:]
        for index in 0..<count { files["s\(index).bin"] = TestPattern.bytes(count: 4096 + index) }
        let nginx = try NginxServer.start(files: files)
        defer { nginx.stop() }
        let link = try LinkEmulator(targetPort: nginx.port, shape: LinkEmulator.Shape(oneWayDelayMilliseconds: 25))
        defer { link.shutdown() }
        let harness = try QueueHarness(maxConcurrent: 4, tls: TLSOptions(caFile: nginx.caFile))
        defer { harness.cleanUp() }
        let ids = try (0..<count).map { try harness.add(try #require(URL(string: link.url("/s\($0).bin")))) }
        #expect(await harness.recorder.wait(for: ids))
        #expect(ids.allSatisfy { harness.recorder.latest($0)?.state == .complete })
        for index in 0..<count {
            let data = try harness.contents("s\(index).bin")
            #expect(data.count == 4096 + index && TestPattern.matches(data), "s\(index).bin")
        }
        // Far more than -j at once, over few connections (bench/run.sh's scenario F measures
        // what it is worth).
        #expect(harness.recorder.maximumActive > 16, "at most \(harness.recorder.maximumActive) at once")
        #expect(link.connections.accepted <= 3, "\(link.connections.accepted) connections")
    }

    @Test("a server that ends each connection after 40 requests (GOAWAY): every file whole, none failed")
    func goAway() async throws {
        let count = 200
        var files: [String: [UInt8]] = [:]
        for index in 0..<count { files["g\(index).bin"] = TestPattern.bytes(count: 2048 + index) }
        let nginx = try NginxServer.start(files: files, serverLines: "keepalive_requests 40;")
        defer { nginx.stop() }
        let link = try LinkEmulator(targetPort: nginx.port, shape: LinkEmulator.Shape(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let harness = try QueueHarness(maxConcurrent: 4, tls: TLSOptions(caFile: nginx.caFile))
        defer { harness.cleanUp() }
        let ids = try (0..<count).map { try harness.add(try #require(URL(string: link.url("/g\($0).bin")))) }
        #expect(await harness.recorder.wait(for: ids))
        let ended = ids.compactMap { harness.recorder.latest($0) }
        #expect(
            ended.allSatisfy { $0.state == .complete }, "\(ended.filter { $0.state != .complete }.map(\.lastError))")
        for index in 0..<count {
            let data = try harness.contents("g\(index).bin")
            #expect(data.count == 2048 + index && TestPattern.matches(data), "g\(index).bin")
        }
        // The server's GOAWAYs took new connections, and cost at most a retry of the files they
        // cut, never the others'.
        #expect(link.connections.accepted >= count / 40, "\(link.connections.accepted) connections")
        let retried = ended.filter { $0.attempts > 1 }.count
        #expect(retried < count / 4, "\(retried) of \(count) files took more than one attempt")
    }
}
