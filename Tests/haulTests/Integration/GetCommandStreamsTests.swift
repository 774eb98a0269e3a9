import Foundation
import HaulTestSupport
import Testing

/// Many small files from an HTTP/2 server across a link with latency: they go out as many
/// streams on a few connections, and a stream the server resets or refuses costs a retry of
/// that file only.
@Suite("haul get: HTTP/2 streams over a real link")
struct GetCommandStreamsTests {
    /// What a run of `haul get -j 4` over a list of small files saw.
    struct Outcome {
        let names: [String]
        let stats: H2Server.Stats
        let connections: Int
        /// The names in the download directory after the run.
        let listing: [String]
    }

    /// Runs `haul get -q -j 4` on `count` files of `size` bytes from `server`, through a link of
    /// 20 ms round trip; expects it to end well with every file whole.
    static func fetch(_ count: Int, size: Int, from server: H2Server) async throws -> Outcome {
        let link = try LinkEmulator(targetPort: server.port, shape: .init(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let names = (0..<count).map { String(format: "f%03d", $0) }
        let list = names.map { link.url("/f/\($0)") + "\n" }.joined()
        let run = try await HaulProcess.run(
            ["get", "-q", "-j", "4", "--ca-certificate", server.caFile, "-i", "-"], in: directory, stdin: list)
        #expect(run.status == 0, "\(run.stderr)")
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
        return Outcome(
            names: names, stats: try server.stats, connections: link.connections.accepted,
            listing: try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    @Test("300 small files with -j 4 go out as dozens of streams on at most five connections")
    func streamsInFlight() async throws {
        let outcome = try await Self.fetch(300, size: 4096, from: try H2Server(size: 4096, delayMilliseconds: 20))
        // Beyond -j: the server saw many requests open at once on one connection.
        #expect(outcome.stats.peakStreams >= 32, "at most \(outcome.stats.peakStreams) streams at once")
        // The first connection, and the pool's four to a host that multiplexes.
        #expect(outcome.connections <= 5, "\(outcome.connections) connections")
        #expect(outcome.stats.requests.values.allSatisfy { $0 == 1 } && outcome.stats.requests.count == 300)
    }

    @Test("a stream reset half way is retried alone, and its file is whole")
    func resetStreamRetriedAlone() async throws {
        let server = try H2Server(size: 16384, delayMilliseconds: 5, reset: ["/f/f007", "/f/f150"])
        let outcome = try await Self.fetch(200, size: 16384, from: server)
        let requests = outcome.stats.requests
        #expect(outcome.stats.resets == 2)
        #expect(requests["/f/f007"] == 2 && requests["/f/f150"] == 2, "\(requests)")
        let others = requests.filter { $0.key != "/f/f007" && $0.key != "/f/f150" }
        #expect(others.count == 198 && others.values.allSatisfy { $0 == 1 }, "\(others.filter { $0.value != 1 })")
        // Nothing of a reset stream's quarter body is left beside the files.
        #expect(Set(outcome.listing) == Set(outcome.names), "\(Set(outcome.listing).subtracting(outcome.names))")
    }

    @Test("a server that says GOAWAY after 40 requests on each connection still gives every file whole")
    func goAway() async throws {
        let server = try H2Server(size: 8192, delayMilliseconds: 5, goAwayAfter: 40)
        let outcome = try await Self.fetch(200, size: 8192, from: server)
        #expect(outcome.stats.goaways >= 4, "\(outcome.stats.goaways) GOAWAYs")
        // A stream refused after a GOAWAY was asked again on another connection; none more than twice.
        #expect(outcome.stats.requests.count == 200, "\(outcome.stats.requests.count) paths asked")
        #expect(
            outcome.stats.requests.values.allSatisfy { $0 <= 2 }, "\(outcome.stats.requests.filter { $0.value > 2 })")
    }

    @Test("a server that refuses every stream is backed off as a whole: a fraction of the requests, every file failed")
    func refusedStreams() async throws {
        let server = try H2Server(size: 4096, refuseAll: true)
        let link = try LinkEmulator(targetPort: server.port, shape: .init(oneWayDelayMilliseconds: 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let count = 600
        let list = (0..<count).map { link.url(String(format: "/f/f%03d", $0)) + "\n" }.joined()
        let run = try await HaulProcess.run(
            ["get", "-q", "-m", "3", "--ca-certificate", server.caFile, "-i", "-"], in: directory, stdin: list)
        #expect(run.status != 0)
        let failures = run.stderr.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        #expect(failures.count == count, "\(run.stderr.suffix(500))")
        #expect(failures.contains { $0.contains("refused") && $0.contains("requests in a row") })
        // Each download on its own: 3 attempts of six requests each (libcurl asks again five times
        // itself), 10,800. Together: the first wave's six each at most (libcurl's tries come before
        // haul hears of a refusal), then one probe at a time.
        let refused = try server.stats.refused
        #expect(refused < count * 6, "\(refused) streams refused")
    }
}
