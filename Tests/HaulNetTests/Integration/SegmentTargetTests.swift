import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

/// A download that fills one segment of a shared file: it stops at its end (set at the start or
/// moved earlier while it runs) as a success, and leaves the rest of the file alone.
@Suite("Segment targets")
struct SegmentTargetTests {
    private func scratchFile(filledWith byte: UInt8, count: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-segment-\(UUID()).bin").path
        try Data(repeating: byte, count: count).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Loads a paced 2 MB file into `target` and, once `after` bytes are written, moves its end
    /// to each of `limits` in turn.
    private func loadPaced(into target: DownloadTarget, after: Int64, limits: [Int64]) async throws -> RecordingDelegate
    {
        let limited = Mutex(false)
        return await load(
            try request("/file/2000000?key=\(UUID())&pace=65536"),
            disposition: { _ in .becomeDownload(target) },
            onEvent: { connection, event in
                guard case .written(let total) = event, total >= after,
                    limited.withLock({ done in
                        defer { done = true }; return !done
                    })
                else { return }
                for limit in limits { connection.limitDownload(toFileOffset: limit) }
            })
    }

    @Test("a body written from its offset stops at its end and keeps the rest of the file")
    func boundedTarget() async throws {
        let path = try scratchFile(filledWith: 0xAA, count: 200_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var request = try request("/bytes/200000")
        request.byteRange = ByteRange(from: 50_000)
        let target = DownloadTarget(path: path, offset: 50_000, end: 120_000, keepsTail: true)
        let delegate = await load(request, disposition: { _ in .becomeDownload(target) })
        #expect(delegate.events.suffix(2) == [.downloaded(path), .finished], "\(delegate.events)")
        #expect(delegate.events.contains(.written(total: 70_000)))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.count == 200_000)
        #expect(file[0..<50_000].allSatisfy { $0 == 0xAA } && file[120_000...].allSatisfy { $0 == 0xAA })
        #expect(TestPattern.matches(file[50_000..<120_000], offset: 50_000))
    }

    @Test("a target that must exist and is gone (finished and renamed meanwhile) fails, and no file is made")
    func targetMustExist() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-gone-\(UUID())").path
        let target = DownloadTarget(path: path, offset: 100, end: 1000, keepsTail: true, mustExist: true)
        var request = try request("/bytes/2000")
        request.byteRange = ByteRange(from: 100, through: 999)
        let delegate = await load(request, disposition: { _ in .becomeDownload(target) })
        #expect(delegate.events.last == .failed(.fileWrite), "\(delegate.events)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("moving the end earlier while the body runs ends it there, as a success")
    func limitWhileRunning() async throws {
        let path = try scratchFile(filledWith: 0xAA, count: 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The end is set well ahead of the paced body (640 KB/s), so it lands before the body does.
        let delegate = try await loadPaced(
            into: DownloadTarget(path: path, keepsTail: true), after: 100_000, limits: [1_500_000])
        #expect(delegate.events.suffix(2) == [.downloaded(path), .finished], "\(delegate.events.suffix(4))")
        #expect(delegate.events.contains(.written(total: 1_500_000)))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.count == 1_500_000 && TestPattern.matches(file))
    }

    @Test("an end already passed ends the body at once; a later end never extends it")
    func limitAlreadyPassed() async throws {
        let path = try scratchFile(filledWith: 0xAA, count: 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let delegate = try await loadPaced(
            into: DownloadTarget(path: path, end: 1_000_000, keepsTail: true), after: 200_000,
            limits: [5_000_000, 1000])
        #expect(delegate.events.suffix(2) == [.downloaded(path), .finished], "\(delegate.events.suffix(4))")
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.count >= 200_000 && file.count < 1_000_000 && TestPattern.matches(file))
    }
}
