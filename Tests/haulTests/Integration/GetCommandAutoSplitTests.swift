import Foundation
import HaulTestSupport
import Testing

// MARK: - GetCommandAutoSplitTests

/// `haul get` with no connection options (automatic splitting) against servers that take one
/// connection a client and refuse the rest in their own ways: the file is whole, on one attempt,
/// and `-v` says why it stayed on one connection.
@Suite("haul get: automatic splitting against servers that take one connection")
struct GetCommandAutoSplitTests {
    /// How a server refuses the added connections (`FaultServer`'s `ranged=`).
    static let refusals = ["429", "429&retryAfter=5", "503", "cut"]

    @Test(
        "an added connection refused or cut after its headers: the file finishes on one, one attempt",
        arguments: refusals)
    func refused(_ refusal: String) async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let size = 12_000_000
        // 250 kB every 100 ms: about 5 s on one connection, time for a step of growth.
        let url = server.url("/file/\(size)?key=\(key)&pace=250000&ranged=\(refusal)").absoluteString
        let run = try await HaulProcess.run(["get", "-v", "-o", "file", url], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("file"))
        #expect(data.count == size && TestPattern.matches(data))
        #expect(run.stderr.contains("connection: the server refused more"), "\(run.stderr)")
        #expect(!run.stderr.contains("attempt 2"), "\(run.stderr)")
        // The first request, and the added ones the server refused: none asked again.
        let requests = server.fileRequests.requests(for: key)
        #expect(requests.count <= 4, "\(requests.count) requests")
    }
}
