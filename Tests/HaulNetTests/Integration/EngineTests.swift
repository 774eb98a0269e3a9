import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// The engine's own promises: connection reuse, the per-host cap, ranges, speed caps, headers.
/// Each test uses a fault server and an engine of its own, so counts are its alone.
@Suite("Engine")
struct EngineTests {
    private func loadAll(_ requests: [Request], engine: ConnectionEngine) async -> [RecordingDelegate] {
        let queue = TestQueue()
        let delegates = requests.map { _ in RecordingDelegate(onQueue: queue.isCurrent) }
        for (request, delegate) in zip(requests, delegates) {
            Connection(request: request, delegate: delegate, queue: queue.queue, engine: engine).start()
        }
        for delegate in delegates { #expect(await delegate.ended.wait()) }
        return delegates
    }

    @Test("sequential loads to one host reuse one kept-alive connection")
    func keepAlive() async throws {
        let server = try FaultServer.start()
        let engine = ConnectionEngine()
        defer { engine.shutdown(); server.shutdown() }
        for _ in 0..<10 {
            let delegates = await loadAll([Request(url: server.url("/bytes/1000"))], engine: engine)
            #expect(delegates[0].body.count == 1000)
        }
        #expect(server.connections.accepted == 1)
    }

    @Test("a burst's connections stay open for the next burst, however few loads ran between")
    func cacheKeptBetweenBursts() async throws {
        // libcurl's own cache size is four connections for each load running now: as the last
        // loads of a burst ended, it closed connections the next burst then opened again.
        let server = try FaultServer.start()
        let engine = ConnectionEngine()
        defer { engine.shutdown(); server.shutdown() }
        for _ in 0..<3 {
            let requests = (0..<16).map { _ in Request(url: server.url("/bytes/1000")) }
            let delegates = await loadAll(requests, engine: engine)
            #expect(delegates.allSatisfy { $0.body.count == 1000 })
        }
        #expect(server.connections.accepted <= 16)
    }

    @Test("no more connections to one host than the per-host cap")
    func perHostCap() async throws {
        let server = try FaultServer.start()
        var configuration = ConnectionEngine.Configuration()
        configuration.maxConnectionsPerHost = 2
        let engine = ConnectionEngine(configuration: configuration)
        defer { engine.shutdown(); server.shutdown() }
        let requests = (0..<8).map { _ in Request(url: server.url("/huge/4000000")) }
        let delegates = await loadAll(requests, engine: engine)
        #expect(delegates.allSatisfy { $0.body.count == 4_000_000 })
        #expect(server.connections.maximumOpen <= 2)
    }

    @Test("a byte range asks for part of the body")
    func byteRange() async throws {
        var partial = try request("/bytes/10000")
        partial.byteRange = ByteRange(from: 1000, through: 1999)
        let delegate = await load(partial)
        #expect(delegate.events.first == .response(206))
        #expect(delegate.body.count == 1000 && TestPattern.matches(delegate.body, offset: 1000))
        #expect(delegate.record.withLock { $0.response?.headers["Content-Range"] } == "bytes 1000-1999/10000")
    }

    @Test("the speed cap holds, and can be lifted while the load runs")
    func speedCap() async throws {
        var capped = try request("/huge/3000000")
        capped.maxReceiveSpeed = 1_000_000
        let start = ContinuousClock.now
        let slow = await load(capped)
        #expect(ContinuousClock.now - start >= .seconds(2))
        #expect(slow.body.count == 3_000_000)

        var lifted = try request("/huge/100000000")
        lifted.maxReceiveSpeed = 1000
        let liftedStart = ContinuousClock.now
        let fast = await load(
            lifted,
            onEvent: { connection, event in
                if event == .response(200) { connection.setMaxReceiveSpeed(nil) }
            })
        #expect(fast.body.count == 100_000_000)
        #expect(ContinuousClock.now - liftedStart < .seconds(60))
    }

    @Test("the overall cap is shared by all transfers and can be lifted while they run")
    func overallCap() async throws {
        let server = try FaultServer.start()
        let engine = ConnectionEngine()
        defer { engine.shutdown(); server.shutdown() }
        engine.setMaxOverallReceiveSpeed(1_000_000)
        let start = ContinuousClock.now
        let capped = await loadAll((0..<3).map { _ in Request(url: server.url("/huge/1000000")) }, engine: engine)
        #expect(ContinuousClock.now - start >= .seconds(2))
        #expect(capped.allSatisfy { $0.body.count == 1_000_000 })

        engine.setMaxOverallReceiveSpeed(1000)
        let queue = TestQueue()
        let delegate = RecordingDelegate(
            onQueue: queue.isCurrent,
            onEvent: { _, event in
                if event == .response(200) { engine.setMaxOverallReceiveSpeed(nil) }
            })
        let liftedStart = ContinuousClock.now
        Connection(
            request: Request(url: server.url("/huge/50000000")), delegate: delegate, queue: queue.queue,
            engine: engine
        ).start()
        #expect(await delegate.ended.wait())
        #expect(delegate.body.count == 50_000_000)
        #expect(ContinuousClock.now - liftedStart < .seconds(60))
    }

    @Test("headers, user agent and the no-cache policy reach the server")
    func requestHeaders() async throws {
        var request = try request("/headers")
        request.headers.add("X-Custom", "yes")
        request.userAgent = "haul-test/1"
        request.cachePolicy = .reloadIgnoringCache
        let echoed = String(decoding: await load(request).body, as: UTF8.self)
        #expect(echoed.contains("X-Custom: yes"))
        #expect(echoed.contains("User-Agent: haul-test/1"))
        #expect(echoed.contains("Cache-Control: no-cache"))
    }

    @Test("a header value with CR or LF is never sent")
    func headerInjection() async throws {
        var request = try request("/headers")
        request.headers.add("X-Evil", "a\r\nInjected: yes")
        let echoed = String(decoding: await load(request).body, as: UTF8.self)
        #expect(!echoed.contains("Injected"))
    }

    @Test("a load started beside a long HTTP/1.1 transfer to the same host is not held back behind it")
    func notHeldBehindBusyConnection() async throws {
        // An engine and a server of its own, and no clock: on a loaded machine a load can take
        // seconds for reasons that have nothing to do with this rule. Held back, the short load
        // could only end after the paced one (about 50 s); it must end while that one still runs.
        let server = try FaultServer.start()
        let engine = ConnectionEngine()
        defer { engine.shutdown(); server.shutdown() }
        let queue = TestQueue()
        let paced = RecordingDelegate(onQueue: queue.isCurrent)
        let long = Connection(
            request: Request(url: server.url("/file/4000000?key=\(UUID())&pace=8192")),
            delegate: paced, queue: queue.queue, engine: engine)
        long.start()
        defer { long.cancel() }
        let quick = await loadAll([Request(url: server.url("/bytes/10"))], engine: engine)
        #expect(quick[0].events.last == .finished)
        #expect(!paced.ended.hasFired, "the short load ended only after the paced one: \(paced.events.suffix(2))")
        #expect(server.connections.accepted == 2)
    }
}

/// The debug check behind the engine's threading contract: every entry point of a `Transfer`
/// and the loop itself ask it, so the suite running without a trap shows they run on it.
@Suite("Engine thread check")
struct EngineThreadCheckTests {
    @Test("code for the engine thread traps on another thread")
    func traps() async {
        await #expect(processExitsWith: .failure) {
            EngineThread.precondition()
        }
    }
}
