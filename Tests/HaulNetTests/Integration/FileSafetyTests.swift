import Foundation
import HaulTestSupport
import Testing

@testable import HaulNet

/// A download's file is written only where it is a regular file of its own: a symbolic link or
/// a FIFO planted at the partial file's path between runs is refused, never written through.
@Suite("Download files are not written through links")
struct FileSafetyTests {
    @Test("a partial file replaced by a symbolic link fails the load and leaves the link's target alone")
    func symlinkRefused() async throws {
        let directory = try ScratchDirectory.make("haul-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let partial = directory.appendingPathComponent("x.part").path
        try FileManager.default.createSymbolicLink(atPath: partial, withDestinationPath: victim.path)
        let delegate = await load(
            try request("/bytes/5000"),
            disposition: { _ in
                .becomeDownload(DownloadTarget(path: partial, offset: 0, mustExist: true))
            })
        #expect(delegate.events.last == .failed(.fileWrite))
        #expect(delegate.record.withLock { $0.error?.description.contains("symbolic link") } == true)
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
    }

    @Test("a FIFO at the partial file's path is refused without blocking")
    func fifoRefused() async throws {
        let directory = try ScratchDirectory.make("haul-fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = directory.appendingPathComponent("x.part").path
        #expect(mkfifo(partial, 0o600) == 0)
        let delegate = await load(
            try request("/bytes/5000"),
            disposition: { _ in
                .becomeDownload(DownloadTarget(path: partial, offset: 0, mustExist: true))
            })
        #expect(delegate.events.last == .failed(.fileWrite))
    }
}
