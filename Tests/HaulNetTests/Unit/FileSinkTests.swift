import Foundation
import Testing

@testable import HaulNet

/// The engine's file writer: bytes gathered through a buffer and written with positioned
/// writes, and a body's known last bytes written straight from libcurl's buffer.
@Suite("File sink")
struct FileSinkTests {
    /// Runs `body` with a sink writing a scratch file (removed after) that holds `held` already,
    /// for a body of `length` bytes written from the end of `held`.
    private func withSink(
        holding held: [UInt8] = [], expecting length: Int64, _ body: (FileSink, String) throws -> Void
    ) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-sink-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        if !held.isEmpty { try Data(held).write(to: URL(fileURLWithPath: path)) }
        let target = DownloadTarget(path: path, offset: Int64(held.count))
        try body(try FileSink(target: target, url: nil, expectedLength: length), path)
    }

    private func bytes(_ count: Int, from start: Int = 0) -> [UInt8] {
        (start..<(start + count)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    private func write(_ chunk: [UInt8], to sink: FileSink) throws -> Int64 {
        try chunk.withUnsafeBytes { buffer throws(ConnectionError) in try sink.write(buffer, url: nil) }
    }

    private func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("a body of known length that comes in one piece reaches the file at once")
    func wholeBodyAtOnce() throws {
        let body = bytes(16_384)
        try withSink(expecting: Int64(body.count)) { sink, path throws in
            #expect(try write(body, to: sink) == Int64(body.count))
            #expect(try sink.finish(url: nil) == 0)
            #expect(try contents(path) == Data(body))
        }
    }

    @Test("pieces are gathered, and the last one, after gathered bytes, is written with them")
    func piecesGathered() throws {
        let body = bytes(30_000)
        try withSink(expecting: Int64(body.count)) { sink, path throws in
            #expect(try write(Array(body[0..<10_000]), to: sink) == 0)
            #expect(try write(Array(body[10_000...]), to: sink) == 0)
            #expect(try sink.finish(url: nil) == Int64(body.count))
            #expect(try contents(path) == Data(body))
        }
    }

    @Test("a body longer than the buffer has its first piece written (and reported) at once, the next gathered")
    func firstPieceAtOnce() throws {
        let length = Int64(FileSink.capacity) * 4
        try withSink(expecting: length) { sink, path throws in
            #expect(try write(bytes(16_384), to: sink) == 16_384)
            #expect(try write(bytes(16_384, from: 16_384), to: sink) == 0)
            #expect(try contents(path).count == 16_384)
        }
    }

    @Test("a resumed body's last bytes go after what the file holds, not over it")
    func resumedBody() throws {
        let held = bytes(1000)
        let rest = bytes(500, from: 1000)
        try withSink(holding: held, expecting: Int64(rest.count)) { sink, path throws in
            #expect(try write(rest, to: sink) == Int64(rest.count))
            _ = try sink.finish(url: nil)
            #expect(try contents(path) == Data(held + rest))
        }
    }

    @Test("a body longer than its stated length is kept whole")
    func longerThanStated() throws {
        let body = bytes(3000)
        try withSink(expecting: 2000) { sink, path throws in
            #expect(try write(Array(body[0..<2000]), to: sink) == 2000)
            #expect(try write(Array(body[2000...]), to: sink) == 0)
            _ = try sink.finish(url: nil)
            #expect(try contents(path) == Data(body))
        }
    }
}
