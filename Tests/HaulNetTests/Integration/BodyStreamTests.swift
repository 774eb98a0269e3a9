import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

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

    /// A `method` request to `path` whose body comes from `provider`, with `credentials`.
    private func upload(
        _ path: String, _ method: String, from provider: Provider,
        credentials: Credentials? = nil
    ) throws -> Request {
        var upload = try request(path)
        upload.method = method
        upload.body = provider.body
        upload.credentials = credentials
        return upload
    }

    @Test("a 307 sends a streamed body again from a new stream", arguments: [307, 308])
    func redirectReopens(code: Int) async throws {
        let provider = Provider(count: 300_000)
        let delegate = await load(try upload("/redirect/\(code)?to=/upload", "PUT", from: provider))
        #expect(delegate.events.last == .finished)
        #expect(provider.opened.withLock { $0 } == 2)
        #expect(delegate.body == Data(provider.payload))
    }

    @Test("no second stream for a 307 fails the load")
    func redirectWithoutStream() async throws {
        let provider = Provider(count: 1000, limit: 1)
        let delegate = await load(try upload("/redirect/307?to=/upload", "POST", from: provider))
        #expect(delegate.events.last == .failed(.bodyStream))
        #expect(!delegate.events.contains(.response(200)))
    }

    @Test("a Digest challenge sends a streamed body again from a new stream")
    func authenticationRetryReopens() async throws {
        let provider = Provider(count: 200_000)
        let delegate = await load(
            try upload(
                "/auth/digest?user=ann&pass=s3cret", "PUT", from: provider,
                credentials: Credentials(user: "ann", password: "s3cret")))
        #expect(delegate.events.contains(.response(200)))
        #expect(delegate.record.withLock { $0.response?.headers["X-Received-Length"] } == "200000")
        #expect(provider.opened.withLock { $0 } == 2)
        #expect(delegate.events.last == .finished)
    }

    @Test("no second stream for a Digest challenge fails the load")
    func authenticationRetryWithoutStream() async throws {
        let provider = Provider(count: 1000, limit: 1)
        let delegate = await load(
            try upload(
                "/auth/digest?user=ann&pass=s3cret", "POST", from: provider,
                credentials: Credentials(user: "ann", password: "s3cret")))
        #expect(delegate.events.last == .failed(.bodyStream))
    }
}
