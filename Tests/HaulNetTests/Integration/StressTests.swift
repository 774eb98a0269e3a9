import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

/// Many connections on mixed routes, cancelled at random moments: every one keeps the contract.
@Suite("Stress")
struct StressTests {
    private struct Plan: Sendable {
        let path: String
        let expectedBody: Int?  // nil: not checked (errors, redirects refused…)
        let cancelAt: Int?  // cancel during the Nth message; -1 right after start
    }

    @Test("500 connections, random cancels: order, one ending, right queue, right bytes")
    func fiveHundred() async throws {
        var generator = SeededGenerator(seed: 0x4841_554C)
        let routes: [(String, Int?)] = [
            ("/bytes/1", 1), ("/bytes/70000", 70000), ("/chunked/30000", 30000), ("/chain/2", 100),
            ("/status/404", nil), ("/drop/40000", nil), ("/empty", 0), ("/redirect/307?to=/bytes/33", 33),
            ("/huge/3000000", 3_000_000), ("/loop", nil),
        ]
        let plans = (0..<500).map { _ -> Plan in
            let (path, body) = routes.randomElement(using: &generator)!
            let cancelAt: Int? =
                Int.random(in: 0..<4, using: &generator) == 0 ? [-1, 1, 2, 3].randomElement(using: &generator) : nil
            return Plan(path: path, expectedBody: body, cancelAt: cancelAt)
        }
        let queues = (0..<4).map { TestQueue(label: "stress.\($0)") }
        var delegates: [(Plan, RecordingDelegate, Connection)] = []
        for (index, plan) in plans.enumerated() {
            let queue = queues[index % queues.count]
            let counter = Mutex(0)
            let delegate = RecordingDelegate(
                onQueue: queue.isCurrent,
                onEvent: { connection, _ in
                    let seen = counter.withLock {
                        $0 += 1; return $0
                    }
                    if plan.cancelAt == seen { connection.cancel() }
                })
            let connection = Connection(request: try request(plan.path), delegate: delegate, queue: queue.queue)
            connection.start()
            if plan.cancelAt == -1 { connection.cancel() }
            delegates.append((plan, delegate, connection))
        }
        for (plan, delegate, _) in delegates where plan.cancelAt == nil {
            #expect(await delegate.ended.wait(seconds: 120), "\(plan.path) never ended")
        }
        for queue in queues { try await barrier(queue: queue.queue) }

        for (plan, delegate, _) in delegates {
            let record = delegate.record.withLock { $0 }
            #expect(RecordingDelegate.orderViolation(record.events) == nil, "\(plan.path): \(record.events)")
            #expect(record.wrongQueue == 0 && record.overlapping == 0)
            let endings = record.events.filter(\.isEnding).count
            if let cancelAt = plan.cancelAt {
                #expect(record.events.count <= max(cancelAt, 0), "\(plan.path): message after cancel \(record.events)")
            } else {
                #expect(endings == 1, "\(plan.path): \(record.events)")
                if let expected = plan.expectedBody {
                    #expect(record.body.count == expected && TestPattern.matches(record.body), "\(plan.path)")
                }
            }
        }
    }
}
