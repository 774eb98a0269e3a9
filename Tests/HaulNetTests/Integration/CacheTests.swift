import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

// MARK: - Caching (contract rule 7)

/// One scratch cache and the shared fault server; every URL carries a key of its own, so the
/// server's count of requests for it belongs to one test.
private struct CacheFixture {
    let cache: ResponseCache
    let server: FaultServer
    let key = UUID().uuidString

    init(capacity: Int64 = 1 << 20) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-cache-\(UUID())").path
        cache = try ResponseCache(directory: directory, capacity: capacity)
        server = try FaultServer.shared()
    }

    func request(
        _ size: Int = 100, _ query: String, policy: CachePolicy = .useProtocolPolicy,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> Request {
        var request = Request(url: server.url("/cacheable/\(size)?key=\(key)&\(query)"))
        request.cachePolicy = policy
        request.headers = headers
        request.acceptsEncodedContent = query.contains("gzip=1")
        return request
    }

    /// Loads `request` through the cache; the delegate's answer to `willCacheResponse` is
    /// `decision`'s.
    func load(
        _ request: Request, disposition: @escaping @Sendable (Response) -> ResponseDisposition = { _ in .allow },
        decision: @escaping @Sendable (CachedResponse) -> CachedResponse? = { $0 }
    ) async -> RecordingDelegate {
        let queue = TestQueue()
        let delegate = RecordingDelegate(onQueue: queue.isCurrent, disposition: disposition, cacheDecision: decision)
        Connection(request: request, delegate: delegate, queue: queue.queue, cache: cache).start()
        #expect(await delegate.ended.wait(), "the connection never ended: \(delegate.events)")
        #expect(RecordingDelegate.orderViolation(delegate.events) == nil)
        #expect(delegate.record.withLock { $0.wrongQueue + $0.overlapping } == 0)
        return delegate
    }

    /// Requests the server has had for this fixture's key.
    var served: Int { server.fileRequests.requests(for: key).count }
}

private extension RecordingDelegate {
    var offers: Int { events.filter { if case .willCache = $0 { true } else { false } }.count }
    var text: String { String(decoding: body, as: UTF8.self) }
    var fromCache: Bool { record.withLock { $0.response?.isFromCache } == true }
}

@Suite("Rule 7: what is stored, when the delegate is asked, what answers a request")
struct CacheTests {
    // MARK: - Storing rules

    @Test(
        "a response that may be stored is offered once, after its data and before the finish; the next load is answered from disk"
    )
    func offeredOnceThenServed() async throws {
        let fixture = try CacheFixture()
        let first = await fixture.load(fixture.request(5000, "cc=max-age=60"))
        #expect(first.offers == 1)
        #expect(Array(first.events.suffix(2)) == [.willCache(5000), .finished])
        #expect(!first.fromCache)

        let second = await fixture.load(fixture.request(5000, "cc=max-age=60"))
        #expect(second.fromCache && second.offers == 0)
        #expect(second.text.hasPrefix("served 1\n") && second.body.count == 5000)
        #expect(second.events == [.response(200), .data(5000), .finished])
        #expect(fixture.served == 1)
    }

    @Test("only http and https GETs of a whole resource without a body may be stored")
    func onlyHTTPGets() throws {
        let fixture = try CacheFixture()
        let ok = Response(url: URL(string: "http://h.test/x")!, statusCode: 200)
        #expect(fixture.cache.mayStore(ok, for: Request(url: URL(string: "https://h.test/x")!)))
        #expect(!fixture.cache.mayStore(ok, for: Request(url: URL(string: "ftp://h.test/x")!)))
        var post = Request(url: URL(string: "http://h.test/x")!)
        post.method = "POST"
        post.body = .bytes([1])
        #expect(!fixture.cache.mayStore(ok, for: post))
        var ranged = Request(url: URL(string: "http://h.test/x")!)
        ranged.byteRange = ByteRange(from: 10, through: 20)
        #expect(!fixture.cache.mayStore(Response(url: ok.url, statusCode: 206), for: ranged))
    }

    @Test("a status other than 2xx is not offered, and the next load goes to the server")
    func onlySuccess() async throws {
        let fixture = try CacheFixture()
        let url = fixture.server.url("/status/404?key=\(fixture.key)")
        let missing = await fixture.load(Request(url: url))
        #expect(missing.events.first == .response(404) && missing.offers == 0)
        #expect(fixture.cache.cachedResponse(for: Request(url: url)) == nil)
    }

    @Test("a response from the cache, even one the server confirmed with a 304, is not offered again")
    func notFromCache() async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, "cc=max-age=0&etag=1"))
        let confirmed = await fixture.load(fixture.request(100, "cc=max-age=0&etag=1"))
        #expect(confirmed.fromCache && confirmed.offers == 0)
        #expect(fixture.served == 2)
    }

    @Test("reloadIgnoringCache neither reads nor writes the cache")
    func reloadIgnoringCache() async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, "cc=max-age=60"))
        let reload = await fixture.load(fixture.request(100, "cc=max-age=60", policy: .reloadIgnoringCache))
        #expect(!reload.fromCache && reload.offers == 0 && reload.text.hasPrefix("served 2"))
        // What is stored is still the first response.
        let next = await fixture.load(fixture.request(100, "cc=max-age=60"))
        #expect(next.fromCache && next.text.hasPrefix("served 1"))
        #expect(fixture.served == 2)
    }

    @Test("no-store, from the server or in the request, keeps a response out", arguments: ["response", "request"])
    func noStore(side: String) async throws {
        let fixture = try CacheFixture()
        let request =
            side == "response"
            ? fixture.request(100, "cc=no-store")
            : fixture.request(100, "cc=max-age=60", headers: ["Cache-Control": "no-store"])
        let first = await fixture.load(request)
        #expect(first.offers == 0)
        _ = await fixture.load(request)
        #expect(fixture.served == 2)
    }

    @Test(
        "a body larger than 5% of the capacity is not offered, whether its length is announced or not",
        arguments: ["", "gzip=1&"])
    func tooLarge(encoding: String) async throws {
        let fixture = try CacheFixture(capacity: 20_000)
        #expect(fixture.cache.maximumEntrySize == 1000)
        let big = await fixture.load(fixture.request(1001, "\(encoding)cc=max-age=60"))
        #expect(big.body.count == 1001 && big.offers == 0)
        let small = await fixture.load(fixture.request(1000, "\(encoding)cc=max-age=60&small=1"))
        #expect(small.offers == 1)
    }

    @Test("the delegate may keep a response out (nil) or store a changed one")
    func delegateSay() async throws {
        let fixture = try CacheFixture()
        let refused = await fixture.load(fixture.request(100, "cc=max-age=60"), decision: { _ in nil })
        #expect(refused.offers == 1)
        let second = await fixture.load(
            fixture.request(100, "cc=max-age=60"),
            decision: { cached in
                var changed = cached
                changed.data = Data("changed by the delegate".utf8)
                return changed
            })
        #expect(!second.fromCache && second.text.hasPrefix("served 2"))
        let changed = await fixture.load(fixture.request(100, "cc=max-age=60"))
        #expect(changed.fromCache && changed.text == "changed by the delegate")
        #expect(fixture.served == 2)
    }

    @Test("a multipart/x-mixed-replace stream, several responses in one load, is never offered")
    func multipartNotStored() async throws {
        let fixture = try CacheFixture()
        let stream = await fixture.load(Request(url: fixture.server.url("/multipart/3?key=\(fixture.key)")))
        #expect(stream.events.filter { $0 == .response(200) }.count == 3 && stream.offers == 0)
    }

    @Test("the fetcher with a cache answers a second fetch from disk")
    func fetcher() async throws {
        let fixture = try CacheFixture()
        let fetcher = Fetcher(cache: fixture.cache)
        let url = fixture.request(100, "cc=max-age=60").url
        let (first, firstResponse) = try await fetcher.data(from: url)
        let (second, secondResponse) = try await fetcher.data(from: url)
        #expect(!firstResponse.isFromCache && secondResponse.isFromCache)
        #expect(first == second && fixture.served == 1)
        fetcher.cachePolicy = .reloadIgnoringCache
        let (third, _) = try await fetcher.data(from: url)
        #expect(String(decoding: third.prefix(8), as: UTF8.self) == "served 2" && fixture.served == 2)
    }

    @Test("a body that became a download is not offered; a stored one can become a download")
    func downloads() async throws {
        let fixture = try CacheFixture()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-cached-\(UUID())").path
        defer { unlink(path) }
        let direct = await fixture.load(
            fixture.request(3000, "cc=max-age=60"), disposition: { _ in .becomeDownload(DownloadTarget(path: path)) })
        #expect(direct.offers == 0 && direct.events.last == .finished)
        _ = await fixture.load(fixture.request(3000, "cc=max-age=60"))
        unlink(path)
        let fromDisk = await fixture.load(
            fixture.request(3000, "cc=max-age=60"), disposition: { _ in .becomeDownload(DownloadTarget(path: path)) })
        #expect(fromDisk.events == [.response(200), .written(total: 3000), .downloaded(path), .finished])
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: file.prefix(9), as: UTF8.self) == "served 2\n" && file.count == 3000)
        #expect(fixture.served == 2)
    }

    // MARK: - Policies

    @Test(
        "useProtocolPolicy: a fresh response (max-age, Expires) is used without asking the server",
        arguments: ["cc=max-age=60", "expires=60"])
    func protocolFresh(query: String) async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, query))
        let again = await fixture.load(fixture.request(100, query))
        #expect(again.fromCache && fixture.served == 1)
    }

    @Test(
        "useProtocolPolicy: a stale response with a validator is confirmed by a 304 and served from disk",
        arguments: ["etag=1", "lm=1"])
    func protocolRevalidates(validator: String) async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, "cc=no-cache&\(validator)"))
        let again = await fixture.load(fixture.request(100, "cc=no-cache&\(validator)"))
        #expect(again.events.first == .response(200) && again.fromCache && again.text.hasPrefix("served 1"))
        // The 304's fields refresh the stored ones.
        #expect(again.record.withLock { $0.response?.headers["X-Served"] } == "2")
        let asked = fixture.server.fileRequests.requests(for: fixture.key).map(\.validator)
        #expect(asked == [nil, validator == "etag=1" ? "\"c1\"" : CacheRoute.lastModified])
    }

    @Test(
        "useProtocolPolicy: a stale response without a validator (max-age=0, a bad Expires) is loaded again",
        arguments: ["cc=max-age=0", "expires=bad", ""])
    func protocolStale(query: String) async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, query))
        let again = await fixture.load(fixture.request(100, query))
        #expect(!again.fromCache && again.text.hasPrefix("served 2") && again.offers == 1)
    }

    @Test("returnCacheDataElseLoad: a stored response is used however old; with none, the server is asked")
    func cacheElseLoad() async throws {
        let fixture = try CacheFixture()
        let first = await fixture.load(fixture.request(100, "cc=max-age=0", policy: .returnCacheDataElseLoad))
        #expect(!first.fromCache && first.offers == 1)
        let second = await fixture.load(fixture.request(100, "cc=max-age=0", policy: .returnCacheDataElseLoad))
        #expect(second.fromCache && second.text.hasPrefix("served 1") && fixture.served == 1)
    }

    @Test("returnCacheDataDontLoad: a stored response is used however old; with none, the load fails with notInCache")
    func cacheDontLoad() async throws {
        let fixture = try CacheFixture()
        let none = await fixture.load(fixture.request(100, "cc=max-age=0", policy: .returnCacheDataDontLoad))
        #expect(none.events == [.failed(.notInCache)] && fixture.served == 0)
        _ = await fixture.load(fixture.request(100, "cc=max-age=0"))
        let stored = await fixture.load(fixture.request(100, "cc=max-age=0", policy: .returnCacheDataDontLoad))
        #expect(stored.fromCache && stored.text.hasPrefix("served 1") && fixture.served == 1)
    }

    // MARK: - Entries

    @Test("Vary: a request with other values for the named fields is not answered from the cache")
    func vary() async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, "cc=max-age=60&vary=X-Lang", headers: ["X-Lang": "en"]))
        let other = await fixture.load(fixture.request(100, "cc=max-age=60&vary=X-Lang", headers: ["X-Lang": "fr"]))
        #expect(!other.fromCache)
        let same = await fixture.load(fixture.request(100, "cc=max-age=60&vary=X-Lang", headers: ["X-Lang": "fr"]))
        #expect(same.fromCache && fixture.served == 2)
    }

    @Test("entries are private files that keep no Set-Cookie, and are found again by a new cache on the directory")
    func entriesOnDisk() async throws {
        let fixture = try CacheFixture()
        _ = await fixture.load(fixture.request(100, "cc=max-age=60&cookie=1"))
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.cache.directory)
        let name = try #require(names.count == 1 ? names.first : nil, "entries: \(names)")
        let path = "\(fixture.cache.directory)/\(name)"
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(fixture.cache.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let contents = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(contents.range(of: Data("secret-cookie".utf8)) == nil)

        let reopened = try ResponseCache(directory: fixture.cache.directory, capacity: 1 << 20)
        let stored = reopened.cachedResponse(for: fixture.request(100, "cc=max-age=60&cookie=1"))
        #expect(stored?.response.headers["X-Served"] == "1" && stored?.response.headers["Set-Cookie"] == nil)
    }

    @Test("a URL's password never reaches the entry on disk; the same URL finds the entry again")
    func noPasswordOnDisk() async throws {
        let fixture = try CacheFixture()
        var components = try #require(
            URLComponents(url: fixture.request(100, "cc=max-age=60").url, resolvingAgainstBaseURL: false))
        components.user = "ann"
        components.password = "s3cretpw"
        let url = try #require(components.url)
        let fetcher = Fetcher(cache: fixture.cache)
        _ = try await fetcher.data(from: url)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.cache.directory)
        let name = try #require(names.count == 1 ? names.first : nil, "entries: \(names)")
        let contents = try Data(contentsOf: URL(fileURLWithPath: "\(fixture.cache.directory)/\(name)"))
        #expect(contents.range(of: Data("s3cretpw".utf8)) == nil)
        let (_, again) = try await fetcher.data(from: url)
        #expect(again.isFromCache && fixture.served == 1)
    }

    @Test("a damaged entry is a miss and is removed")
    func damagedEntry() async throws {
        let fixture = try CacheFixture()
        let request = fixture.request(100, "cc=max-age=60")
        _ = await fixture.load(request)
        let name = ResponseCache.fileName(for: request.url)
        let path = "\(fixture.cache.directory)/\(name)"
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count - 10).write(to: URL(fileURLWithPath: path))
        #expect(fixture.cache.cachedResponse(for: request) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        let reloaded = await fixture.load(request)
        #expect(!reloaded.fromCache && fixture.served == 2)
    }

    @Test("past the capacity, the least recently used entries go first")
    func eviction() throws {
        func url(_ index: Int) -> URL { URL(string: "http://h.test/e\(index + 10)")! }
        func entry(_ index: Int) -> CachedResponse {
            CachedResponse(response: Response(url: url(index), statusCode: 200), data: Data(count: 10))
        }
        // Every entry takes the same room: measure one, then make room for five and a half.
        let probe = try CacheFixture()
        try probe.cache.store(entry(0), for: Request(url: url(0)))
        let each = probe.cache.currentSize
        let fixture = try CacheFixture(capacity: each * 11 / 2)
        func has(_ index: Int) -> Bool { fixture.cache.cachedResponse(for: Request(url: url(index))) != nil }

        for index in 0..<5 { try fixture.cache.store(entry(index), for: Request(url: url(index))) }
        #expect(fixture.cache.currentSize > each * 4)
        #expect(has(0))  // now the most recently used
        for index in 5..<7 { try fixture.cache.store(entry(index), for: Request(url: url(index))) }
        #expect(!has(1) && !has(2))
        #expect(has(0) && has(3) && has(4) && has(5) && has(6))
        #expect(fixture.cache.currentSize <= fixture.cache.capacity)
    }

    @Test("a cache directory that cannot be used is a clear error")
    func badDirectory() throws {
        #expect(throws: ResponseCacheError.self) { try ResponseCache(directory: "/proc/haul-cache", capacity: 1000) }
        #expect(throws: ResponseCacheError.self) { try ResponseCache(directory: NSTemporaryDirectory(), capacity: 0) }
    }

    // MARK: - Freshness arithmetic

    @Test("freshness: max-age wins over Expires; Last-Modified gives a tenth of its age, at most a day; Age counts")
    func freshness() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        func cached(_ fields: [(String, String)]) -> CachedResponse {
            var headers = HTTPHeaders()
            headers.add("Date", HTTPDate.format(date))
            for (name, value) in fields { headers.add(name, value) }
            return CachedResponse(
                response: Response(url: URL(string: "http://h.test/")!, statusCode: 200, headers: headers),
                data: Data(), storedAt: date)
        }
        #expect(
            cached([("Cache-Control", "max-age=30"), ("Expires", HTTPDate.format(date + 600))]).freshnessLifetime == 30)
        #expect(cached([("Expires", HTTPDate.format(date + 600))]).freshnessLifetime == 600)
        #expect(cached([("Last-Modified", HTTPDate.format(date - 1000))]).freshnessLifetime == 100)
        #expect(cached([("Last-Modified", HTTPDate.format(date - 10_000_000))]).freshnessLifetime == 86_400)
        #expect(cached([("Cache-Control", "max-age=60, no-cache")]).freshnessLifetime == 0)
        let aged = cached([("Cache-Control", "max-age=60"), ("Age", "50")])
        #expect(aged.isFresh(at: date + 5) && !aged.isFresh(at: date + 11))
    }
}
