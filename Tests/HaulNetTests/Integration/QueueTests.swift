import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// Contract rule 9: every message runs on the creator's queue, one at a time, in order.
@Suite("Rule 9: delegate queues")
struct QueueTests {
    @Test("all messages run on the given serial dispatch queue")
    func dispatchQueue() async throws {
        let delegate = await load(try request("/chain/2"))
        let record = delegate.record.withLock { $0 }
        #expect(record.wrongQueue == 0)
        #expect(record.overlapping == 0)
        #expect(record.events.count > 4)
    }

    @Test("on a concurrent OperationQueue, one connection's messages still run one at a time")
    func operationQueue() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let delegates = (0..<8).map { _ in
            RecordingDelegate(onQueue: { OperationQueue.current === queue })
        }
        for delegate in delegates {
            var upload = try request("/upload")
            upload.method = "POST"
            upload.body = .bytes(TestPattern.bytes(count: 1 << 20))
            Connection(request: upload, delegate: delegate, queue: queue).start()
        }
        for delegate in delegates {
            #expect(await delegate.ended.wait())
            let record = delegate.record.withLock { $0 }
            #expect(record.wrongQueue == 0)
            #expect(record.overlapping == 0)
            #expect(RecordingDelegate.orderViolation(record.events) == nil)
            #expect(record.body.count == 1 << 20)
        }
    }
}
