import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

/// The fetcher of the contract page (seed 001), built on connections.
@Suite("Fetcher")
struct FetcherTests {
    @Test("defaults are 60 s and the protocol's cache policy")
    func defaults() {
        let fetcher = Fetcher()
        #expect(fetcher.timeoutInterval == 60)
        #expect(fetcher.cachePolicy == .useProtocolPolicy)
    }

    @Test("many loads at once each complete with their own data, and are then forgotten")
    func manyAtOnce() async throws {
        let fetcher = Fetcher()
        let server = try FaultServer.shared()
        let results = Mutex<[Int: Int]>([:])
        let done = Signal()
        let sizes = Array(1...40).map { $0 * 1000 }
        for size in sizes {
            fetcher.fetch(
                server.url("/bytes/\(size)"),
                completion: { data, response in
                    #expect(OperationQueue.current === fetcher.callbackQueue)
                    #expect(TestPattern.matches(data) && response.statusCode == 200)
                    let count = results.withLock {
                        $0[size] = data.count; return $0.count
                    }
                    if count == sizes.count { done.fire() }
                }, failure: { error in Issue.record("\(error)") })
        }
        #expect(await done.wait())
        #expect(results.withLock { $0 } == Dictionary(uniqueKeysWithValues: sizes.map { ($0, $0) }))
        #expect(fetcher.activeCount == 0)
    }

    @Test("a status of 400 or more calls failure with the code and reason")
    func statusFailure() async throws {
        let fetcher = Fetcher()
        await #expect(
            throws: ConnectionError(
                kind: .httpStatus(code: 404, reason: "Not Found"),
                url: try FaultServer.shared().url("/status/404"))
        ) {
            _ = try await fetcher.data(from: try FaultServer.shared().url("/status/404"))
        }
    }

    @Test("the async form returns body and response")
    func asyncData() async throws {
        let (data, response) = try await Fetcher().data(from: try FaultServer.shared().url("/gzip/5000"))
        #expect(data.count == 5000 && TestPattern.matches(data))
        #expect(response.headers["Content-Encoding"] == "gzip")
    }

    @Test("timeoutInterval applies to each load")
    func timeoutApplies() async throws {
        let fetcher = Fetcher()
        fetcher.timeoutInterval = 1
        do {
            _ = try await fetcher.data(from: try FaultServer.shared().url("/stall"))
            Issue.record("a stalled load succeeded")
        } catch let error as ConnectionError {
            #expect(error.kind == .timedOut)
        }
    }

    @Test("cancelAll calls neither block")
    func cancelAll() async throws {
        let fetcher = Fetcher()
        let called = Mutex(0)
        for _ in 0..<10 {
            fetcher.fetch(
                try FaultServer.shared().url("/huge/100000000"), completion: { _, _ in called.withLock { $0 += 1 } },
                failure: { _ in called.withLock { $0 += 1 } })
        }
        fetcher.cancelAll()
        #expect(fetcher.activeCount == 0)
        let queue = DispatchQueue(label: "barrier")
        try await barrier(queue: queue)
        await withCheckedContinuation { continuation in fetcher.callbackQueue.addOperation { continuation.resume() } }
        #expect(called.withLock { $0 } == 0)
    }

    @Test("cancelling the task ends data(from:) with CancellationError")
    func taskCancellation() async throws {
        let fetcher = Fetcher()
        let task = Task { try await fetcher.data(from: try FaultServer.shared().url("/stall")) }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test("a new response resets the data received so far")
    func newResponseResetsData() throws {
        let fetcher = Fetcher()
        let connection = FetcherConnection(
            request: try request("/bytes/1"), fetcher: fetcher, queue: fetcher.callbackQueue,
            engine: .shared, completion: { _, _ in }, failure: { _ in })
        fetcher.connection(connection, didReceive: Data([1, 2, 3]))
        _ = fetcher.connection(connection, didReceive: Response(url: connection.originalRequest.url, statusCode: 200))
        fetcher.connection(connection, didReceive: Data([4]))
        #expect(connection.takeEnding().2 == Data([4]))
    }
}
