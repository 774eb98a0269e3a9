import Foundation
import HaulTestSupport
import Testing

/// `haul get -i URL`, as a user runs it: the queue file is loaded, cached under
/// `$XDG_CACHE_HOME/haul/responses`, and its downloads run.
@Suite("haul get with a queue file URL")
struct GetCommandRemoteQueueTests {
    @Test("-i URL downloads the list's entries; a second run reads the fresh list from the cache; a 404 names the URL")
    func remoteList() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let list = [
            server.url("/bytes/1000").absoluteString, "  out=one.bin", server.url("/bytes/2000").absoluteString,
            "  out=two.bin",
        ]
        let url = server.queueFileURL(lines: list, key: key, cacheControl: "max-age=300").absoluteString
        let cache = directory.appendingPathComponent("cache")
        let environment = ["XDG_CACHE_HOME": cache.path]

        let first = try await HaulProcess.run(["get", "-i", url, "-d", "a"], in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("2 entries queued"), "\(first.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("a/two.bin")).count == 2000)
        let entries = try FileManager.default.contentsOfDirectory(
            atPath: cache.appendingPathComponent("haul/responses").path)
        #expect(entries.count == 1)

        let second = try await HaulProcess.run(["get", "-i", url, "-d", "b"], in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("b/one.bin")).count == 1000)
        #expect(server.fileRequests.requests(for: key).count == 1)

        let missing = try await HaulProcess.run(
            ["get", "-i", server.url("/status/404").absoluteString], in: directory, environment: environment)
        #expect(missing.status == 28)
        #expect(missing.stderr.contains("could not be loaded") && missing.stderr.contains("404"), "\(missing.stderr)")
    }
}
