import Foundation
import Testing

@testable import HaulCore

/// aria2's `.aria2` control file, read as aria2 1.36 writes it (version 1, big-endian) and as
/// older versions did (version 0, little-endian here), with pieces in flight.
@Suite("aria2 control files")
struct Aria2ControlFileTests {
    /// What aria2c 1.36 wrote for a 10 MiB file stopped with SIGINT: piece 0 done, and the first
    /// 16 KiB block of piece 1 in flight.
    static let written: [UInt8] = [
        0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x02, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x08, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    @Test("aria2c's own file: the finished piece and the finished block of the piece in flight")
    func aria2Written() throws {
        let control = try Aria2ControlFile(parsing: Self.written)
        #expect(control.totalLength == 10 << 20 && control.pieceLength == 1 << 20)
        #expect(control.completed.ranges == [0..<((1 << 20) + (16 << 10))])
    }

    @Test("version 0 is little-endian; runs of pieces become one range each; the last piece is short")
    func versionZero() throws {
        var bytes: [UInt8] = [0x00, 0x00] + le(0, 4) + le(0, 4) + le(1000, 4) + le(4500, 8) + le(0, 8)
        // Five pieces: 0, 1 and 4 done (0b1100_1000).
        bytes += le(1, 4) + [0b1100_1000] + le(0, 4)
        let control = try Aria2ControlFile(parsing: bytes)
        #expect(control.completed.ranges == [0..<2000, 4000..<4500])
    }

    @Test(
        "a malformed file says which field is wrong",
        arguments: [
            ([0x00, 0x01, 0x00], "ends inside its extension"),
            ([0x00, 0x07] + Array(repeating: 0, count: 40), "unknown control-file version 7"),
            ([0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 20] + Array(repeating: 1, count: 60), "BitTorrent"),
        ] as [([UInt8], String)])
    func malformed(bytes: [UInt8], message: String) {
        #expect {
            try Aria2ControlFile(parsing: bytes)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a bitfield whose length does not fit the file, or a piece in flight past its end, is refused")
    func inconsistent() {
        let header = [0x00, 0x01] + be(0, 4) + be(0, 4) + be(1000, 4) + be(4500, 8) + be(0, 8)
        #expect(throws: OptionError.self) { try Aria2ControlFile(parsing: header + be(3, 4) + [0, 0, 0] + be(0, 4)) }
        #expect(throws: OptionError.self) {
            try Aria2ControlFile(parsing: header + be(1, 4) + [0] + be(1, 4) + be(9, 4) + be(1000, 4) + be(0, 4))
        }
    }

    @Test("an unfinished file: the control file's bytes that the file holds, or a curl file's size")
    func unfinishedFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-a2-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/f.bin"
        // aria2 allocated the whole file; the control file counts only what it wrote.
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 10 << 20)))
        #expect(FileManager.default.createFile(atPath: path + ".aria2", contents: Data(Self.written)))
        let found = try #require(try UnfinishedFile.find(at: path))
        #expect(found.source == .aria2ControlFile && found.totalBytes == 10 << 20)
        #expect(found.completed.count == (1 << 20) + (16 << 10))
        var download = Download(uris: ["http://127.0.0.1/f.bin"])
        try found.continueAs(&download)
        #expect(download.destination == path && FileManager.default.fileExists(atPath: path + ".part"))
        // A run stopped before its first checkpoint left NAME.part beside the control file.
        #expect(try UnfinishedFile.find(at: path)?.dataPath == path + ".part")

        let curl = directory + "/c.bin"
        #expect(FileManager.default.createFile(atPath: curl, contents: Data(count: 700)))
        let sized = try #require(try UnfinishedFile.find(at: curl))
        #expect(sized.source == .size && sized.completed.ranges == [0..<700] && sized.totalBytes == -1)
        #expect(try UnfinishedFile.find(at: directory + "/none") == nil)
    }

    private func le(_ value: Int64, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func be(_ value: Int64, _ width: Int) -> [UInt8] {
        le(value, width).reversed()
    }
}
