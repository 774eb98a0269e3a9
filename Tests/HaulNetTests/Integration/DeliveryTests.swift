import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// Contract rules 3, 4 and 5: responses before data, dispositions, the body exactly, upload
/// progress.
@Suite("Rules 3-5: responses, data, uploads")
struct DeliveryTests {
    // MARK: - Rule 3

    @Test("the response comes before any data")
    func responseBeforeData() async throws {
        let delegate = await load(try request("/bytes/300000"))
        #expect(delegate.events.first == .response(200))
        #expect(RecordingDelegate.orderViolation(delegate.events) == nil)
        let response = try #require(delegate.record.withLock { $0.response })
        #expect(response.expectedContentLength == 300_000)
        #expect(response.reasonPhrase == "OK")
    }

    @Test("a 1xx is never delivered as a response")
    func noInformationalResponse() async throws {
        var upload = try request("/upload")
        upload.method = "POST"
        upload.body = .bytes([1, 2, 3])
        upload.headers.add("Expect", "100-continue")
        let delegate = await load(upload)
        #expect(delegate.events.filter { if case .response = $0 { true } else { false } } == [.response(200)])
    }

    @Test("the cancel disposition stops the load with no further message")
    func cancelDisposition() async throws {
        let queue = TestQueue()
        let delegate = RecordingDelegate(onQueue: queue.isCurrent, disposition: { _ in .cancel })
        let connection = Connection(request: try request("/bytes/100000"), delegate: delegate, queue: queue.queue)
        connection.start()
        try await barrier(queue: queue.queue)
        try await barrier(queue: queue.queue)
        #expect(delegate.events == [.response(200)])
        #expect(connection.isDone)
    }

    @Test("becomeDownload writes the body to the file and reports the path")
    func becomeDownload() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let delegate = await load(
            try request("/bytes/2000000"), disposition: { _ in .becomeDownload(DownloadTarget(path: path)) })
        let events = delegate.events
        #expect(events.suffix(2) == [.downloaded(path), .finished])
        #expect(events.contains(.written(total: 2_000_000)))
        #expect(!events.contains { if case .data = $0 { true } else { false } })
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == 2_000_000 && TestPattern.matches(written))
    }

    @Test(
        "a connection that presumes its answer sends the body there at once; the delegate still hears the response first"
    )
    func presumedDisposition() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = TestQueue()
        // Asked, the delegate would take the body as data: it is not asked.
        let delegate = RecordingDelegate(onQueue: queue.isCurrent, disposition: { _ in .allow })
        let connection = Connection(
            request: try request("/bytes/300000"), delegate: delegate, queue: queue.queue,
            presuming: { response in
                response.statusCode == 200 ? .becomeDownload(DownloadTarget(path: path)) : nil
            })
        connection.start()
        #expect(await delegate.ended.wait())
        let events = delegate.events
        #expect(events.first == .response(200) && events.suffix(2) == [.downloaded(path), .finished], "\(events)")
        #expect(!events.contains { if case .data = $0 { true } else { false } })
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == 300_000 && TestPattern.matches(written))
    }

    @Test("a cancel from the delegate stops a load whose answer was presumed, with no further message")
    func presumedThenCancelled() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = TestQueue()
        let delegate = RecordingDelegate(onQueue: queue.isCurrent, disposition: { _ in .cancel })
        let connection = Connection(
            request: try request("/file/1000000?key=\(UUID())&pace=32768"), delegate: delegate, queue: queue.queue,
            presuming: { _ in .becomeDownload(DownloadTarget(path: path)) })
        connection.start()
        try await barrier(queue: queue.queue)
        try await barrier(queue: queue.queue)
        #expect(delegate.events == [.response(200)])
        #expect(connection.isDone)
    }

    @Test("becomeDownload into a missing directory fails with a file error naming the path")
    func downloadIntoMissingDirectory() async throws {
        let path = "/nonexistent-haul-dir/file.bin"
        let delegate = await load(
            try request("/bytes/10"), disposition: { _ in .becomeDownload(DownloadTarget(path: path)) })
        #expect(delegate.events.last == .failed(.fileWrite))
        #expect(delegate.error?.description.contains(path) == true)
        #expect(delegate.error?.description.contains("No such file or directory") == true)
    }

    @Test("a 1 GiB body streams to disk without being held in memory")
    func hugeBody() async throws {
        let size = 1 << 30
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-huge-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let delegate = await load(
            try request("/huge/\(size)"), disposition: { _ in .becomeDownload(DownloadTarget(path: path)) })
        #expect(delegate.events.last == .finished)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        var offset = 0
        while let chunk = try handle.read(upToCount: 8 << 20), !chunk.isEmpty {
            #expect(TestPattern.matches(chunk, offset: offset), "mismatch near offset \(offset)")
            offset += chunk.count
        }
        #expect(offset == size)
    }

    // MARK: - Rule 4

    @Test("the data messages add up to exactly the body", arguments: ["/bytes/1048576", "/chunked/250000", "/bytes/0"])
    func dataIsTheBody(path: String) async throws {
        let delegate = await load(try request(path))
        let expected = Int(path.split(separator: "/").last ?? "0") ?? 0
        #expect(delegate.body.count == expected)
        #expect(TestPattern.matches(delegate.body))
        #expect(delegate.events.last == .finished)
    }

    @Test("an encoded body arrives decoded, with no announced length")
    func gzipDecoded() async throws {
        var encoded = try request("/gzip/200000")
        encoded.acceptsEncodedContent = true
        let delegate = await load(encoded)
        #expect(delegate.body.count == 200_000 && TestPattern.matches(delegate.body))
        #expect(delegate.record.withLock { $0.response?.expectedContentLength } == -1)
    }

    @Test("a delegate that falls behind pauses the transfer instead of buffering without bound")
    func backpressure() async throws {
        let queue = TestQueue()
        let delegate = RecordingDelegate(onQueue: queue.isCurrent)
        queue.queue.suspend()
        Connection(request: try request("/huge/67108864"), delegate: delegate, queue: queue.queue).start()
        // While the queue is stopped the engine can hold at most the high-water mark.
        try await Task.sleep(for: .milliseconds(300))
        queue.queue.resume()
        #expect(await delegate.ended.wait())
        let largest = delegate.events.compactMap { if case .data(let count) = $0 { count } else { nil } }.max() ?? 0
        #expect(largest <= Connection.deliveryHighWater + 1024 * 1024)
        #expect(delegate.body.count == 64 << 20 && TestPattern.matches(delegate.body))
    }

    // MARK: - Rule 5

    @Test("upload progress counts up to the body's length")
    func uploadProgress() async throws {
        let payload = TestPattern.bytes(count: 3 << 20)
        var upload = try request("/upload")
        upload.method = "POST"
        upload.body = .bytes(payload)
        let delegate = await load(upload)
        let sent = delegate.events.compactMap {
            if case .sent(let total, let expected) = $0 { (total, expected) } else { nil }
        }
        #expect(!sent.isEmpty)
        #expect(sent.map(\.0) == sent.map(\.0).sorted())
        #expect(sent.last?.0 == Int64(payload.count) && sent.last?.1 == Int64(payload.count))
        #expect(delegate.body == Data(payload))
    }

    @Test("a streamed body of unknown length is sent chunked, expected -1")
    func streamedUpload() async throws {
        var upload = try request("/upload")
        upload.method = "PUT"
        upload.body = .stream(length: nil, open: { ByteStream(TestPattern.bytes(count: 500_000)) })
        let delegate = await load(upload)
        #expect(delegate.events.contains(.sent(total: 500_000, expected: -1)))
        #expect(delegate.body.count == 500_000 && TestPattern.matches(delegate.body))
    }

    @Test("a stream provider that gives no stream fails the load")
    func missingStream() async throws {
        var upload = try request("/upload")
        upload.method = "POST"
        upload.body = .stream(length: 10, open: { nil })
        let delegate = await load(upload)
        #expect(delegate.events == [.failed(.bodyStream)])
    }
}

/// A request-body stream over bytes in memory.
final class ByteStream: RequestBodyStream {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        bytes[offset..<(offset + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
        offset += count
        return count
    }
}
