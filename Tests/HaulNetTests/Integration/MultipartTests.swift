import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

// MARK: - More than one response (contract rule 3)

@Suite("multipart/x-mixed-replace: a response per part, then its data")
struct MultipartTests {
    @Test("three parts arrive as three responses, each followed by its own data", arguments: [0, 97, 1000])
    func threeParts(chunk: Int) async throws {
        let byPart = Mutex<[(type: String?, data: Data)]>([])
        let delegate = await load(
            try request("/multipart/3\(chunk > 0 ? "?chunk=\(chunk)" : "")"),
            onEvent: { connection, event in
                switch event {
                case .response:
                    byPart.withLock { $0.append((connection.response?.headers["Content-Type"], Data())) }
                default:
                    break
                }
            })
        #expect(delegate.events.last == .finished)
        #expect(RecordingDelegate.orderViolation(delegate.events) == nil)
        let responses = delegate.events.filter { if case .response = $0 { true } else { false } }
        #expect(responses == [.response(200), .response(200), .response(200)])
        // The parts' data, in order, and nothing else.
        var body = delegate.body[...]
        for index in 1...3 {
            let expected = Data(FaultServer.multipartPart(index).data)
            #expect(body.prefix(expected.count) == expected, "part \(index)")
            body = body.dropFirst(expected.count)
        }
        #expect(body.isEmpty)
        #expect(
            byPart.withLock { $0.map(\.type) } == ["text/plain; part=1", "text/plain; part=2", "text/plain; part=3"])
        // No data before the first response, and a response before each part's data.
        var sawData = false
        var afterResponse = 0
        for event in delegate.events {
            if case .response = event { afterResponse = 0 }
            if case .data(let count) = event { sawData = true; afterResponse += count }
        }
        #expect(sawData && afterResponse == FaultServer.multipartPart(3).data.count)
    }

    @Test("the fetcher keeps the last part's data")
    func fetcherResets() async throws {
        let fetcher = Fetcher()
        let (data, response) = try await fetcher.data(from: try request("/multipart/3?chunk=50").url)
        #expect(data == Data(FaultServer.multipartPart(3).data))
        #expect(response.headers["Content-Type"] == "text/plain; part=3")
    }

    @Test("cancel at the second part stops the stream")
    func cancelSecond() async throws {
        let seen = Mutex(0)
        let cancelled = Signal()
        let queue = TestQueue()
        let delegate = RecordingDelegate(
            onQueue: queue.isCurrent,
            disposition: { _ in
                seen.withLock { seen -> ResponseDisposition in
                    seen += 1
                    if seen == 2 { cancelled.fire() }
                    return seen == 2 ? .cancel : .allow
                }
            })
        Connection(request: try request("/multipart/3?chunk=100"), delegate: delegate, queue: queue.queue).start()
        #expect(await cancelled.wait())
        // The rest of the stream (about 0.4 s more at this pace) must not arrive.
        try await Task.sleep(for: .milliseconds(600))
        #expect(delegate.events.filter { if case .response = $0 { true } else { false } }.count == 2)
        #expect(delegate.body == Data(FaultServer.multipartPart(1).data))
        #expect(!delegate.events.contains(.finished))
    }

    @Test("a parser is made for multipart/x-mixed-replace with a boundary, in any case, and nothing else")
    func parserTypes() {
        let table: [(String?, Bool)] = [
            ("multipart/x-mixed-replace;boundary=b", true),
            (" Multipart/X-Mixed-Replace; boundary=\"b c\"", true),
            ("multipart/x-mixed-replace", false),
            ("multipart/mixed; boundary=b", false),
            ("text/plain; boundary=b", false),
            ("", false),
            (nil, false),
        ]
        for (type, made) in table {
            #expect((MultipartReplaceParser(contentType: type) != nil) == made, "\(type ?? "none")")
        }
    }

    @Test("the parser finds boundaries split anywhere, and ignores a preamble")
    func parser() throws {
        var parser = try #require(MultipartReplaceParser(contentType: "multipart/x-mixed-replace;boundary=b"))
        let text = Array("junk\r\n--b\r\nContent-Type: a\r\n\r\nAAA\r\n--b\r\n\r\nBB\r\n--b--\r\n".utf8)
        var events: [MultipartReplaceParser.Event] = []
        for byte in text {
            [byte].withUnsafeBytes { parser.feed($0) }
            while let event = parser.next() { events.append(event) }
        }
        parser.end()
        while let event = parser.next() { events.append(event) }
        var merged: [String] = []
        for event in events {
            switch event {
            case .part(let headers): merged.append("part:\(headers["Content-Type"] ?? "")")
            case .data(let bytes):
                if let last = merged.last, last.hasPrefix("data:") {
                    merged[merged.count - 1] += String(decoding: bytes, as: UTF8.self)
                } else {
                    merged.append("data:" + String(decoding: bytes, as: UTF8.self))
                }
            case .malformed(let detail): merged.append("malformed:\(detail)")
            }
        }
        #expect(merged == ["part:a", "data:AAA", "part:", "data:BB"])
        #expect(MultipartReplaceParser(contentType: "multipart/mixed; boundary=b") == nil)
        #expect(MultipartReplaceParser(contentType: "multipart/x-mixed-replace") == nil)
    }

    @Test("a header block that never ends is malformed at 64 KiB, each byte searched once, not on every read")
    func endlessHeaderBlock() throws {
        var parser = try #require(MultipartReplaceParser(contentType: "multipart/x-mixed-replace; boundary=b"))
        Array("--b\r\nX-Long: ".utf8).withUnsafeBytes { parser.feed($0) }
        #expect(parser.next() == nil)
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        let clock = ContinuousClock()
        var outcome: MultipartReplaceParser.Event?
        // 10 MiB of a header line, 100 bytes a read: a search of the whole buffer on every read
        // would take minutes; stopping at the limit takes a moment.
        let elapsed = clock.measure {
            for _ in 0..<100_000 {
                line.withUnsafeBytes { parser.feed($0) }
                if let event = parser.next() {
                    outcome = event
                    break
                }
            }
        }
        guard case .malformed(let detail) = outcome else {
            Issue.record("expected the stream to be malformed, got \(String(describing: outcome))")
            return
        }
        #expect(detail.contains("header block"))
        #expect(elapsed < .seconds(5))
        #expect(parser.next() == nil)
    }
}

// MARK: - As a download

@Suite("multipart/x-mixed-replace as a download")
struct MultipartDownloadTests {
    @Test("a download of a multipart reply saves the last part")
    func savesLastPart() async throws {
        let directory = try ScratchDirectory.make("haul-mp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stream").path
        let delegate = await load(
            try request("/multipart/3?chunk=40"),
            disposition: { _ in
                .becomeDownload(DownloadTarget(path: path, offset: 0))
            })
        #expect(delegate.events.last == .finished)
        #expect(delegate.events.filter { if case .response = $0 { true } else { false } }.count == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(FaultServer.multipartPart(3).data))
    }

    @Test("a multipart reply that ends before its first part fails the load")
    func noPart() async throws {
        let delegate = await load(try request("/multipart/0?nodelimiter=1"))
        guard case .failed(let kind) = delegate.events.last else {
            Issue.record("expected a failure, got \(delegate.events)")
            return
        }
        #expect(kind == .badResponse)
        #expect(!delegate.events.contains { if case .response = $0 { true } else { false } })
    }
}
