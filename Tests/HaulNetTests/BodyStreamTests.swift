import Foundation
@testable import HaulNet
import HaulTestSupport
import Synchronization
import Testing

// MARK: - A fresh body stream (contract rule 6)

@Suite("A request body sent again comes from a fresh stream")
struct BodyStreamTests {
    /// A provider that counts the streams it opens and gives at most `limit` of them.
    final class Provider: Sendable {
        let opened = Mutex(0)
        let payload: [UInt8]
        let limit: Int
        init(count: Int, limit: Int = .max) {
            payload = TestPattern.bytes(count: count)
            self.limit = limit
        }
        var body: RequestBody {
            .stream(length: Int64(payload.count)) { [self] in
                let allowed = opened.withLock { opened -> Bool in
                    opened += 1
                    return opened <= limit
                }
                return allowed ? ByteStream(payload) : nil
            }
        }
    }

    @Test("a 307 sends a streamed body again from a new stream", arguments: [307, 308])
    func redirectReopens(code: Int) async throws {
        let provider = Provider(count: 300_000)
        var upload = try request("/redirect/\(code)?to=/upload")
        upload.method = "PUT"
        upload.body = provider.body
        let delegate = await load(upload)
        #expect(delegate.events.last == .finished)
        #expect(provider.opened.withLock { $0 } == 2)
        #expect(delegate.body == Data(provider.payload))
    }

    @Test("no second stream for a 307 fails the load")
    func redirectWithoutStream() async throws {
        let provider = Provider(count: 1000, limit: 1)
        var upload = try request("/redirect/307?to=/upload")
        upload.method = "POST"
        upload.body = provider.body
        let delegate = await load(upload)
        #expect(delegate.events.last == .failed(.bodyStream))
        #expect(!delegate.events.contains(.response(200)))
    }

    @Test("a Digest challenge sends a streamed body again from a new stream")
    func authenticationRetryReopens() async throws {
        let provider = Provider(count: 200_000)
        var upload = try request("/auth/digest?user=ann&pass=s3cret")
        upload.method = "PUT"
        upload.body = provider.body
        upload.credentials = Credentials(user: "ann", password: "s3cret")
        let delegate = await load(upload)
        #expect(delegate.events.contains(.response(200)))
        #expect(delegate.record.withLock { $0.response?.headers["X-Received-Length"] } == "200000")
        #expect(provider.opened.withLock { $0 } == 2)
        #expect(delegate.events.last == .finished)
    }

    @Test("no second stream for a Digest challenge fails the load")
    func authenticationRetryWithoutStream() async throws {
        let provider = Provider(count: 1000, limit: 1)
        var upload = try request("/auth/digest?user=ann&pass=s3cret")
        upload.method = "POST"
        upload.body = provider.body
        upload.credentials = Credentials(user: "ann", password: "s3cret")
        let delegate = await load(upload)
        #expect(delegate.events.last == .failed(.bodyStream))
    }
}
