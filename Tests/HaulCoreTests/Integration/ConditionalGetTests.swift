import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// `conditional-get`, `remote-time` and `auto-file-renaming` against the fault server's
/// `/file/N`, whose Last-Modified is 1 Sep 2026 10:00 GMT and whose ETag is `"v1"`.
@Suite("Conditional get, remote time, renaming")
struct ConditionalGetTests {
    private static let lastModified = Date(timeIntervalSince1970: 1_788_256_800)  // 2026-09-01 10:00:00 GMT

    private func modificationDate(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    @Test("-R gives the file the server's time; a conditional get of it is a 304 that keeps it, without a transfer")
    func notModified() async throws {
        let server = try FaultServer.shared()
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let key = UUID().uuidString
        let url = server.url("/file/70000?key=\(key)")
        let first = try harness.add(url, [("remote-time", "true")])
        #expect(await harness.recorder.wait(for: [first]))
        let path = harness.directory.appendingPathComponent("70000").path
        #expect(try modificationDate(path) == ConditionalGetTests.lastModified)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        let again = try harness.add(url, [("conditional-get", "true")])
        #expect(await harness.recorder.wait(for: [again]))
        let download = try #require(harness.recorder.latest(again))
        #expect(
            download.state == .complete && harness.recorder.activity(download.id)?.response?.statusCode == 304,
            "\(download.lastError ?? "")")
        #expect(download.destination == path && download.bytesDone == 70000)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        #expect(try harness.files() == ["70000"])
        #expect(server.fileRequests.requests(for: key).count == 2)
    }

    @Test("an older file is replaced under its own name, and its ETag is kept for next time")
    func modified() async throws {
        let server = try FaultServer.shared()
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let path = harness.directory.appendingPathComponent("5000").path
        try Data("old version".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: path)
        let url = server.url("/file/5000?key=\(UUID())")
        let id = try harness.add(url, [("conditional-get", "true")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let saved = try harness.contents("5000")
        #expect(saved.count == 5000 && TestPattern.matches(saved))
        #expect(try harness.files() == ["5000"])

        // The kept ETag alone makes the next one a 304, whatever the file's time.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: path)
        let next = try harness.add(url, [("conditional-get", "true")])
        #expect(await harness.recorder.wait(for: [next]))
        #expect(harness.recorder.activity(next)?.response?.statusCode == 304)
    }

    @Test("auto-file-renaming=false fails on an existing name instead of saving NAME.1; allow-overwrite replaces it")
    func renaming() async throws {
        let server = try FaultServer.shared()
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        try Data("mine".utf8).write(to: harness.directory.appendingPathComponent("3000"))
        let refused = try harness.add(server.url("/file/3000?key=\(UUID())"), [("auto-file-renaming", "false")])
        #expect(await harness.recorder.wait(for: [refused]))
        let failure = harness.recorder.latest(refused)
        #expect(
            failure?.state == .failed && failure?.lastError?.contains("already exists") == true,
            "\(failure?.lastError ?? "")")
        #expect(try harness.contents("3000") == Data("mine".utf8))

        let replaced = try harness.add(
            server.url("/file/3000?key=\(UUID())"), [("auto-file-renaming", "false"), ("allow-overwrite", "true")])
        #expect(await harness.recorder.wait(for: [replaced]))
        #expect(try harness.contents("3000").count == 3000)
        #expect(try harness.files() == ["3000"])
    }
}
