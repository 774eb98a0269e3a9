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
    /// 200 small files from nginx (with `serverLines`) through a link of `delay` ms each way,
    /// queued at -j 4 and waited for: what ended of each, and the link's connections.
    private static func download(
        delay: Int, serverLines: String = ""
    ) async throws -> (ended: [Download], connections: Int, maximumActive: Int) {
        let count = 200
        var files: [String: [UInt8]] = [:]
        for index in 0..<count { files["f\(index).bin"] = TestPattern.bytes(count: 2048 + index) }
        let nginx = try NginxServer.start(files: files, serverLines: serverLines)
        defer { nginx.stop() }
        let link = try LinkEmulator(targetPort: nginx.port, shape: LinkEmulator.Shape(oneWayDelayMilliseconds: delay))
        defer { link.shutdown() }
        let harness = try QueueHarness(maxConcurrent: 4, tls: TLSOptions(caFile: nginx.caFile))
        defer { harness.cleanUp() }
        let ids = try (0..<count).map { try harness.add(try #require(URL(string: link.url("/f\($0).bin")))) }
        #expect(await harness.recorder.wait(for: ids))
        for index in 0..<count {
            let data = try harness.contents("f\(index).bin")
            #expect(data.count == 2048 + index && TestPattern.matches(data), "f\(index).bin")
        }
        return (
            ids.compactMap { harness.recorder.latest($0) }, link.connections.accepted, harness.recorder.maximumActive
        )
    }

    @Test("200 small files at -j 4 over a 50 ms link: many in flight on a few connections, every file whole")
    func streamsInFlight() async throws {
        let run = try await Self.download(delay: 25)
        #expect(run.ended.count == 200 && run.ended.allSatisfy { $0.state == .complete })
        // Far more than -j at once, over few connections: the first, and the engine's pooled
        // ones to a host that multiplexes (bench/run.sh's scenario F measures what it is worth).
        #expect(run.maximumActive > 16, "at most \(run.maximumActive) at once")
        #expect(
            run.connections <= 1 + ConnectionEngine.Configuration().pooledConnectionsPerHost,
            "\(run.connections) connections")
    }

    @Test("a server that ends each connection after 40 requests (GOAWAY): every file whole, none failed")
    func goAway() async throws {
        let run = try await Self.download(delay: 5, serverLines: "keepalive_requests 40;")
        #expect(
            run.ended.count == 200 && run.ended.allSatisfy { $0.state == .complete },
            "\(run.ended.filter { $0.state != .complete }.map(\.lastError))")
        // The server's GOAWAYs took new connections, and cost at most a retry of the files they
        // cut, never the others'.
        #expect(run.connections >= 5, "\(run.connections) connections")
        let retried = run.ended.filter { $0.attempts > 1 }.count
        #expect(retried < 50, "\(retried) of 200 files took more than one attempt")
    }
}
