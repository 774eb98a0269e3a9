import Foundation
import HaulTestSupport
import Testing

// MARK: - GetCommandAria2DifferentialTests

/// The same queue file, in aria2's own form, given to `aria2c -i` and to `haul get -i`: both
/// save the same files under the same names, with the same bytes.
@Suite(
    "haul get against aria2c", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct GetCommandAria2DifferentialTests {
    /// Every regular file below `directory`, by its path from there, with its bytes.
    private static func files(in directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(directory.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("one queue file (out, dir, split, headers, mirrors, a checksum, a comment) saves the same files")
    func sameFiles() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        try Data(TestPattern.bytes(count: 6000)).write(to: directory.appendingPathComponent("p"))
        let digest = try HaulProcess.shell("sha256sum p | cut -c1-64", in: directory)
        let list = [
            "# aria2's own form: a URI line, then its options indented",
            server.url("/bytes/3000").absoluteString,
            "  out=renamed.bin",
            server.url("/bytes/4000").absoluteString,
            "  dir=sub/deeper",
            "  header=X-Test: 1",
            server.url("/file/2000000?key=\(UUID().uuidString)").absoluteString + "\t"
                + server.url("/file/2000000?key=\(UUID().uuidString)").absoluteString,
            "  split=2",
            "  max-connection-per-server=2",
            "  min-split-size=1M",
            "  out=mirrored.bin",
            server.url("/bytes/6000").absoluteString,
            "  checksum=sha-256=\(digest)",
            "  out=checked.bin",
        ].joined(separator: "\n")
        // Each tool in a folder of its own, where the list is: `dir` is taken from there, as the
        // download directory is.
        let aria2 = directory.appendingPathComponent("by-aria2c")
        let haul = directory.appendingPathComponent("by-haul")
        for folder in [aria2, haul] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try list.write(to: folder.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        }
        let aria2Run = try HaulProcess.shell(
            "/usr/bin/aria2c --no-conf --quiet=true -i list.txt; echo $?", in: aria2)
        #expect(aria2Run.hasSuffix("0"), "aria2c: \(aria2Run)")
        let run = try await HaulProcess.run(["get", "-i", "list.txt"], in: haul)
        #expect(run.status == 0, "\(run.stderr)")
        let byAria2 = try Self.files(in: aria2)
        let byHaul = try Self.files(in: haul)
        #expect(
            byAria2.keys.sorted() == ["checked.bin", "list.txt", "mirrored.bin", "renamed.bin", "sub/deeper/4000"])
        #expect(byHaul.keys.sorted() == byAria2.keys.sorted())
        #expect(byHaul == byAria2)
    }
}
