import Foundation
import Testing

@testable import HaulNet

/// The engine's file writer: bytes gathered through a buffer and written with positioned
/// writes, and a body's known last bytes written straight from libcurl's buffer.
@Suite("File sink")
struct FileSinkTests {
    private func scratchPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("haul-sink-\(UUID()).bin").path
    }

    private func bytes(_ count: Int, from start: Int = 0) -> [UInt8] {
        (start..<(start + count)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    private func write(_ chunk: [UInt8], to sink: FileSink) throws -> Int64 {
        try chunk.withUnsafeBytes { buffer throws(ConnectionError) in try sink.write(buffer, url: nil) }
    }

    @Test("a body of known length that comes in one piece reaches the file at once")
    func wholeBodyAtOnce() throws {
        let path = scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let body = bytes(16_384)
        let sink = try FileSink(target: DownloadTarget(path: path), url: nil, expectedLength: Int64(body.count))
        #expect(try write(body, to: sink) == Int64(body.count))
        #expect(try sink.finish(url: nil) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
    }

    @Test("pieces are gathered, and the last one, after gathered bytes, is written with them")
    func piecesGathered() throws {
        let path = scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let body = bytes(30_000)
        let sink = try FileSink(target: DownloadTarget(path: path), url: nil, expectedLength: Int64(body.count))
        #expect(try write(Array(body[0..<10_000]), to: sink) == 0)
        #expect(try write(Array(body[10_000...]), to: sink) == 0)
        #expect(try sink.finish(url: nil) == Int64(body.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
    }

    @Test("a resumed body's last bytes go after what the file holds, not over it")
    func resumedBody() throws {
        let path = scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let held = bytes(1000)
        try Data(held).write(to: URL(fileURLWithPath: path))
        let rest = bytes(500, from: 1000)
        let sink = try FileSink(
            target: DownloadTarget(path: path, offset: 1000), url: nil, expectedLength: Int64(rest.count))
        #expect(try write(rest, to: sink) == Int64(rest.count))
        _ = try sink.finish(url: nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(held + rest))
    }

    @Test("a body longer than its stated length is kept whole")
    func longerThanStated() throws {
        let path = scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let body = bytes(3000)
        let sink = try FileSink(target: DownloadTarget(path: path), url: nil, expectedLength: 2000)
        #expect(try write(Array(body[0..<2000]), to: sink) == 2000)
        #expect(try write(Array(body[2000...]), to: sink) == 0)
        _ = try sink.finish(url: nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
    }
}
