import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

/// Contract rules 8 and 10: exactly one ending, nothing after a cancel, errors as typed values.
@Suite("Rules 8 and 10: endings and errors")
struct EndingTests {
    @Test("an HTTP error status is a response and a finish, not a failure", arguments: [404, 500])
    func errorStatusFinishes(code: Int) async throws {
        let delegate = await load(try request("/status/\(code)"))
        #expect(delegate.events.first == .response(code))
        #expect(delegate.events.last == .finished)
        #expect(delegate.events.filter(\.isEnding).count == 1)
        #expect(String(decoding: delegate.body, as: UTF8.self) == "status \(code) body")
    }

    @Test("a body without content ends once", arguments: ["/empty"])
    func emptyBody(path: String) async throws {
        let delegate = await load(try request(path))
        #expect(delegate.events == [.response(204), .finished])
    }

    @Test("a HEAD request gets the response and no data")
    func headRequest() async throws {
        var head = try request("/bytes/5000")
        head.method = "HEAD"
        let delegate = await load(head)
        #expect(delegate.events == [.response(200), .finished])
        #expect(delegate.record.withLock { $0.response?.expectedContentLength } == 5000)
    }

    @Test("a connection dropped mid-body fails once with connectionLost")
    func dropMidBody() async throws {
        let delegate = await load(try request("/drop/100000"))
        #expect(delegate.events.first == .response(200))
        #expect(delegate.events.last == .failed(.connectionLost))
        #expect(delegate.events.filter(\.isEnding).count == 1)
        #expect(delegate.body.count == 50_000 && TestPattern.matches(delegate.body))
    }

    @Test("a stalled server times out")
    func stallTimesOut() async throws {
        var stalled = try request("/stall")
        stalled.timeoutInterval = 1
        let delegate = await load(stalled)
        #expect(delegate.events.last == .failed(.timedOut))
        #expect(delegate.error?.curlCode == 28)
    }

    @Test("nothing arrives after cancel, wherever it happens", arguments: [0, 1, 2])
    func nothingAfterCancel(moment: Int) async throws {
        let queue = TestQueue()
        let cancelled = Mutex(false)
        let delegate = RecordingDelegate(
            onQueue: queue.isCurrent,
            onEvent: { connection, event in
                switch (moment, event) {
                case (1, .response), (2, .data):
                    connection.cancel()
                    cancelled.withLock { $0 = true }
                default: break
                }
            })
        let connection = Connection(request: try request("/huge/100000000"), delegate: delegate, queue: queue.queue)
        connection.start()
        if moment == 0 {
            connection.cancel()
            cancelled.withLock { $0 = true }
        }
        // The moment comes when the server's bytes do: on a loaded machine, after a first
        // barrier could pass.
        let deadline = ContinuousClock.now + .seconds(20)
        while !cancelled.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await barrier(queue: queue.queue)
        let before = delegate.events
        try await barrier(queue: queue.queue)
        #expect(delegate.events == before)
        #expect(!before.contains { $0.isEnding })
        switch moment {
        // Cancelled right after the start: on a loaded machine the test's thread may be put
        // aside between the two calls, long enough for a response and data to arrive; what
        // counts is that nothing arrives once cancel() returned (above).
        case 0: break
        case 1: #expect(before == [.response(200)])
        default: #expect(before.filter { if case .data = $0 { true } else { false } }.count == 1)
        }
    }

    // MARK: - Rule 10

    @Test("a refused connection fails with cannotConnect, libcurl's code, the URL and advice")
    func cannotConnect() async throws {
        let url = URL(string: "http://127.0.0.1:1/nothing")!
        let delegate = await load(Request(url: url))
        let error = try #require(delegate.error)
        #expect(error.kind == .cannotConnect)
        #expect(error.curlCode == 7)
        #expect(error.url == url)
        #expect(error.description.contains("could not connect to the server"))
        #expect(error.description.contains("127.0.0.1:1/nothing"))
        #expect(!error.advice.isEmpty)
    }

    @Test("an unsupported scheme fails before any transfer")
    func unsupportedScheme() async throws {
        let delegate = await load(Request(url: URL(string: "gopher://127.0.0.1/")!))
        #expect(delegate.events == [.failed(.unsupportedScheme("gopher"))])
    }

    @Test("returnCacheDataDontLoad with nothing stored fails with notInCache")
    func dontLoad() async throws {
        var cached = try request("/bytes/1")
        cached.cachePolicy = .returnCacheDataDontLoad
        let delegate = await load(cached)
        #expect(delegate.events == [.failed(.notInCache)])
    }

    @Test("a password in the URL never shows in an error")
    func passwordRedacted() async throws {
        let delegate = await load(Request(url: URL(string: "http://user:secret@127.0.0.1:1/")!))
        let text = try #require(delegate.error?.description)
        #expect(!text.contains("secret"))
        #expect(text.contains("user:***@127.0.0.1"))
    }
}
