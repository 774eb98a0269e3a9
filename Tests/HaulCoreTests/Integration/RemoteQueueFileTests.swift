import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// Queue files named by a URL: loaded by the fetcher through its response cache.
@Suite("Queue files from a URL")
struct RemoteQueueFileTests {
    private func scratchCache() throws -> ResponseCache {
        try ResponseCache(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("haul-rq-\(UUID())").path,
            capacity: RemoteQueueFile.cacheCapacity)
    }

    @Test(
        "a list loaded by URL gives its entries and names its problems by the URL; a fresh one is read from the cache next time"
    )
    func loadsThroughCache() throws {
        let server = try FaultServer.shared()
        let key = UUID().uuidString
        let url = server.queueFileURL(
            lines: ["http://a.test/one", "  out=first.bin", "not a url", "https://b.test/two"],
            key: key, cacheControl: "max-age=300")
        let reader = RemoteQueueFile(fetcher: Fetcher(cache: try scratchCache()))
        let first = try reader.read(url)
        #expect(first.entries.map(\.uris) == [["http://a.test/one"], ["https://b.test/two"]])
        #expect(first.entries.first?.options.out == "first.bin")
        #expect(
            first.problems.count == 1 && first.problems[0].file == url.absoluteString && first.problems[0].line == 3)
        let second = try reader.read(url)
        #expect(second.entries.count == 2)
        #expect(server.fileRequests.requests(for: key).count == 1)
    }

    @Test("a list that cannot be loaded is an error naming the URL (without its password) and why")
    func failures() throws {
        let server = try FaultServer.shared()
        let reader = RemoteQueueFile(fetcher: Fetcher(cache: try scratchCache()))
        var components = URLComponents(url: server.url("/status/404"), resolvingAgainstBaseURL: false)
        components?.user = "ann"
        components?.password = "s3cret"
        let url = try #require(components?.url)
        let error = #expect(throws: InputFile.FileError.self) { try reader.read(url) }
        #expect(error?.description.contains("404") == true && error?.description.contains("/status/404") == true)
        #expect(error?.description.contains("s3cret") == false)
    }

    @Test("which arguments are URLs, and where the cache lives")
    func arguments() {
        #expect(RemoteQueueFile.url(in: "https://h.test/list.txt") != nil)
        #expect(RemoteQueueFile.url(in: "ftp://h.test/list.txt") != nil)
        for path in ["list.txt", "/tmp/list.txt", "-", "file:///etc/passwd", "http://", "C:list"] {
            #expect(RemoteQueueFile.url(in: path) == nil, "\(path)")
        }
        #expect(
            RemoteQueueFile.cacheDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"])
                == "/x/cache/haul/responses")
        #expect(
            RemoteQueueFile.cacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])
                == "/h/.cache/haul/responses")
    }
}
