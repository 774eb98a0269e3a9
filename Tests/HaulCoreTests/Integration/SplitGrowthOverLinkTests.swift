import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// Automatic splitting (no -s or -x given) through the link emulator in front of a real nginx:
/// a link that caps each connection gets the most connections allowed, a link one connection
/// fills keeps one or two, and a server that limits connections per address gets no more than
/// it allows, with the file whole and no attempt spent.
@Suite("Automatic splitting over real links", .serialized)
struct SplitGrowthOverLinkTests {
    static let size = 16 << 20

    /// Downloads `big.bin` (16 MiB) from nginx (with `serverLines`, `httpLines`) through a link
    /// of `shape`, with no connection options, under an overall cap of `overallLimit`.
    private static func download(
        shape: LinkEmulator.Shape, serverLines: String = "", httpLines: String = "", overallLimit: Int64? = nil
    ) async throws -> (
        download: Download?, activity: DownloadActivity?, connections: Int, mostAtOnce: Int, seconds: Double
    ) {
        let nginx = try NginxServer.start(
            files: ["big.bin": TestPattern.bytes(count: size)], serverLines: serverLines, httpLines: httpLines)
        defer { nginx.stop() }
        let link = try LinkEmulator(targetPort: nginx.port, shape: shape)
        defer { link.shutdown() }
        // An engine of its own, so an overall cap binds this download alone; real timers, so
        // the measuring windows last.
        let engine = ConnectionEngine()
        defer { engine.shutdown() }
        let harness = try QueueHarness(
            timer: DispatchRetryTimer(), tls: TLSOptions(caFile: nginx.caFile), engine: engine)
        defer { harness.cleanUp() }
        if let overallLimit { harness.queue.setMaxOverallDownloadLimit(overallLimit) }
        let start = ContinuousClock.now
        let id = try harness.add(try #require(URL(string: link.url("/big.bin"))))
        #expect(await harness.recorder.wait(for: [id]))
        let seconds = Double((ContinuousClock.now - start).components.seconds)
        let data = try harness.contents("big.bin")
        #expect(data.count == size && TestPattern.matches(data))
        return (
            harness.recorder.latest(id), harness.recorder.activity(id), link.connections.accepted,
            link.connections.maximumOpen, seconds
        )
    }

    @Test("a link that caps each connection at 1 MiB/s grows to 16 connections")
    func cappedLinkGrows() async throws {
        let run = try await Self.download(shape: .init(bytesPerSecond: 1 << 20, oneWayDelayMilliseconds: 10))
        #expect(run.download?.state == .complete && run.download?.attempts == 1)
        #expect(run.connections >= 16, "\(run.connections) connections")
        #expect(
            run.activity?.splitChoice == "16 connections: the most allowed (--max-connection-per-server)",
            "\(run.activity?.splitChoice ?? "no choice")")
        // One connection takes 16 s; sixteen, 1 s, and the growth some 1 s before them.
        #expect(run.seconds < 5, "\(run.seconds) s")
    }

    @Test("a link one connection fills (an overall cap) settles on one or two connections")
    func filledLinkStays() async throws {
        let run = try await Self.download(shape: .init(oneWayDelayMilliseconds: 10), overallLimit: 4 << 20)
        #expect(run.download?.state == .complete)
        // The step to four is tried once, and given back.
        #expect(run.mostAtOnce <= 4, "\(run.mostAtOnce) connections at once")
        let choice = run.activity?.splitChoice ?? ""
        #expect(choice.hasPrefix("1 connection:") || choice.hasPrefix("2 connections:"), "\(choice)")
    }

    @Test("a server that allows two connections per address gets no more, and the file is whole, no attempt spent")
    func limitedServer() async throws {
        let run = try await Self.download(
            shape: .init(bytesPerSecond: 1 << 20, oneWayDelayMilliseconds: 10),
            serverLines: "limit_conn perip 2;", httpLines: "limit_conn_zone $binary_remote_addr zone=perip:1m;")
        #expect(run.download?.state == .complete && run.download?.attempts == 1)
        #expect(run.download?.lastError == nil, "\(run.download?.lastError ?? "")")
        let choice = run.activity?.splitChoice ?? ""
        #expect(choice.hasPrefix("2 connections: the server refused more"), "\(choice)")
    }

    @Test("a server that allows one connection per address: its refusals never leave a range unfetched")
    func oneConnectionServer() async throws {
        let run = try await Self.download(
            shape: .init(bytesPerSecond: 4 << 20, oneWayDelayMilliseconds: 10),
            serverLines: "limit_conn perip 1; limit_conn_status 503;",
            httpLines: "limit_conn_zone $binary_remote_addr zone=perip:1m;")
        // A refusal of the connection that starts alone, while nginx still counts one that just
        // ended, is an attempt's failure: on a busy machine the file may take a second attempt.
        #expect(
            run.download?.state == .complete && (run.download?.attempts ?? 9) <= 2, "\(run.download?.lastError ?? "")")
        // 16 MiB at 4 MiB/s: about 4 s on one connection.
        #expect(run.seconds < 15, "\(run.seconds) s")
    }
}
