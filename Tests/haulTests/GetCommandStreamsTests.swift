import Foundation
import HaulTestSupport
import Testing

/// Many small files from an HTTP/2 server across a link with latency: they go out as many
/// streams on a few connections, and a stream the server resets or refuses costs a retry of
/// that file only.
@Suite("haul get: HTTP/2 streams over a real link")
struct GetCommandStreamsTests {
    /// A list of `count` files on `server`, reached through `link`.
    static func list(_ count: Int, through link: LinkEmulator) -> (names: [String], text: String) {
        let names = (0..<count).map { String(format: "f%03d", $0) }
        return (names, names.map { link.url("/f/\($0)") + "\n" }.joined())
    }

    /// Every file in `directory` named in `names` holds its body whole.
    static func expectWhole(_ names: [String], in directory: URL, size: Int) {
        var broken: [String] = []
        for name in names {
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
            if data?.count != size
                || !(data.map { TestPattern.matches($0, offset: H2Server.offset(of: name)) } ?? false)
            {
                broken.append(name)
            }
        }
        #expect(broken.isEmpty, "missing or wrong: \(broken.prefix(10))")
    }

    @Test("300 small files with -j 4 go out as dozens of streams on at most five connections")
    func streamsInFlight() async throws {
        let server = try H2Server(size: 4096, delayMilliseconds: 20)
        let link = try LinkEmulator(targetPort: server.port, shape: .init(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (names, list) = GetCommandStreamsTests.list(300, through: link)
        let run = try await HaulProcess.run(
            ["get", "-q", "-j", "4", "--ca-certificate", server.caFile, "-i", "-"], in: directory, stdin: list)
        #expect(run.status == 0, "\(run.stderr)")
        GetCommandStreamsTests.expectWhole(names, in: directory, size: 4096)
        let stats = try server.stats
        // Beyond -j: the server saw many requests open at once on one connection.
        #expect(stats.peakStreams >= 32, "at most \(stats.peakStreams) streams at once")
        // The first connection, and the pool's four to a host that multiplexes.
        #expect(link.connections.accepted <= 5, "\(link.connections.accepted) connections")
        #expect(stats.requests.values.allSatisfy { $0 == 1 } && stats.requests.count == 300)
    }

    @Test("a stream reset half way is retried alone, and its file is whole")
    func resetStreamRetriedAlone() async throws {
        let server = try H2Server(size: 16384, delayMilliseconds: 5, reset: ["/f/f007", "/f/f150"])
        let link = try LinkEmulator(targetPort: server.port, shape: .init(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (names, list) = GetCommandStreamsTests.list(200, through: link)
        let run = try await HaulProcess.run(
            ["get", "-q", "-j", "4", "--ca-certificate", server.caFile, "-i", "-"], in: directory, stdin: list)
        #expect(run.status == 0, "\(run.stderr)")
        GetCommandStreamsTests.expectWhole(names, in: directory, size: 16384)
        let stats = try server.stats
        #expect(stats.resets == 2)
        #expect(stats.requests["/f/f007"] == 2 && stats.requests["/f/f150"] == 2, "\(stats.requests)")
        let others = stats.requests.filter { $0.key != "/f/f007" && $0.key != "/f/f150" }
        #expect(others.count == 198 && others.values.allSatisfy { $0 == 1 }, "\(others.filter { $0.value != 1 })")
        // Nothing of a reset stream's quarter body is left beside the files.
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(listing) == Set(names), "\(Set(listing).subtracting(names))")
    }

    @Test("a server that says GOAWAY after 40 requests on each connection still gives every file whole")
    func goAway() async throws {
        let server = try H2Server(size: 8192, delayMilliseconds: 5, goAwayAfter: 40)
        let link = try LinkEmulator(targetPort: server.port, shape: .init(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (names, list) = GetCommandStreamsTests.list(200, through: link)
        let run = try await HaulProcess.run(
            ["get", "-q", "-j", "4", "--ca-certificate", server.caFile, "-i", "-"], in: directory, stdin: list)
        #expect(run.status == 0, "\(run.stderr)")
        GetCommandStreamsTests.expectWhole(names, in: directory, size: 8192)
        let stats = try server.stats
        #expect(stats.goaways >= 4, "\(stats.goaways) GOAWAYs")
        // A stream refused after a GOAWAY was asked again on another connection; none more than twice.
        #expect(stats.requests.count == 200, "\(stats.requests.count) paths asked")
        #expect(stats.requests.values.allSatisfy { $0 <= 2 }, "\(stats.requests.filter { $0.value > 2 })")
    }
}
