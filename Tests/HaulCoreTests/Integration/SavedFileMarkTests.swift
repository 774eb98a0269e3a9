import CFiles
import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// A saved file's mark: one short attribute, which ext4 keeps inside the inode (no 4 KiB block
/// for it per file), with the server's Last-Modified; a mark of the URI itself, as earlier
/// versions wrote, is still read.
@Suite("Saved file marks")
struct SavedFileMarkTests {
    /// The names of the file's extended attributes.
    private func attributeNames(_ path: String) -> [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = listxattr(path, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return buffer[0..<count].split(separator: 0).map { String(decoding: $0.map(UInt8.init), as: UTF8.self) }
    }

    @Test("a saved file carries one attribute, short enough for an ext4 inode", arguments: [true, false])
    func oneShortAttribute(unnamed: Bool) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        if !unnamed { harness.queue.unnamedSupport.withLock { $0[harness.directory.path] = false } }
        // A long URI: the mark holds its hash, not the URI.
        let url = try FaultServer.shared().url("/file/16384?key=\(UUID())&padding=\(String(repeating: "p", count: 80))")
        let id = try harness.add(url, [("out", "f.bin")])
        #expect(await harness.recorder.wait(for: [id]))
        let path = harness.directory.appendingPathComponent("f.bin").path
        #expect(attributeNames(path) == [SavedFileMark.attribute])
        let mark = try #require(ExtendedAttribute.get(SavedFileMark.attribute, of: path))
        #expect(mark.utf8.count <= 60, "\(mark)")
        #expect(SavedFileMark.gid(of: path) == id)
        // The fault server's Last-Modified (1 Sep 2026 10:00 GMT), for a later conditional get.
        #expect(SavedFileMark.lastModified(of: path) == Date(timeIntervalSince1970: 1_788_256_800))
        let uri = try #require(harness.recorder.latest(id)).displayURI
        #expect(SavedFileMark.savedSize(of: path, uri: uri) == 16384)
        #expect(SavedFileMark.savedSize(of: path, uri: uri + "x") == nil)
        // The file takes no more blocks than its bytes written with no mark (ext4 gives an
        // attribute that does not fit in the inode a block of its own).
        let plain = harness.directory.appendingPathComponent("plain.bin")
        try harness.contents("f.bin").write(to: plain)
        var saved = stat(), written = stat()
        #expect(stat(path, &saved) == 0 && stat(plain.path, &written) == 0)
        #expect(saved.st_blocks <= written.st_blocks, "\(saved.st_blocks) blocks against \(written.st_blocks)")
    }

    @Test("a mark that holds the URI itself is still read, and a changed file is not taken as saved")
    func earlierMarks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mark-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        var status = stat()
        #expect(stat(path, &status) == 0)
        let uri = "http://example.com/a.txt"
        ExtendedAttribute.set(
            SavedFileMark.attribute, to: "\(uri)\n5\n\(status.st_mtim.tv_sec)\n00000000000000ab", on: path)
        #expect(SavedFileMark.savedSize(of: path, uri: uri) == 5)
        #expect(SavedFileMark.gid(of: path) == "00000000000000ab")
        try Data("hello, changed".utf8).write(to: URL(fileURLWithPath: path))
        #expect(SavedFileMark.savedSize(of: path, uri: uri) == nil)
    }
}
