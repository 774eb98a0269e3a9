import Foundation
import HaulNet
import HaulText
import Testing

@testable import HaulCore

// MARK: - ExtremeNumbersTests

/// Every number a server, a file or a client controls is checked where it is read or summed
/// without overflow: sizes near `Int64.max` in a Metalink, a Content-Range, a store, an option,
/// never trap; the ones past `FileSize.largest` are refused or unknown.
@Suite("extreme numbers")
struct ExtremeNumbersTests {
    private static let nearMax = Int64.max - 1

    @Test("piece hashes never fit a size past 8 PiB, and finding bad pieces there does not trap")
    func pieceHashes() throws {
        let hash = String(repeating: "a", count: 64)
        let pieces = try PieceHashes(algorithm: .sha256, length: 1 << 20, hashes: [hash, hash])
        #expect(!pieces.fit(Self.nearMax))
        #expect(!pieces.fit(.max))
        #expect(pieces.fit((1 << 20) + 1))
        #expect(try pieces.badPieces(ofFileAt: "/nonexistent", total: .max).isEmpty)
        let long = try PieceHashes(algorithm: .sha256, length: FileSize.largest, hashes: [hash])
        #expect(long.fit(FileSize.largest))
        #expect(throws: OptionError.self) { try PieceHashes(algorithm: .sha256, length: .max, hashes: [hash]) }
        #expect(throws: OptionError.self) { try PieceHashes(parsing: "sha-256:9223372036854775807:\(hash)") }
    }

    @Test("a Metalink <size> near Int64.max with <pieces> is left out with its reason")
    func metalinkSize() throws {
        let hash = String(repeating: "b", count: 64)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="huge.bin"><size>9223372036854775806</size>
                <pieces type="sha-256" length="9223372036854775807"><hash>\(hash)</hash><hash>\(hash)</hash></pieces>
                <url>http://127.0.0.1:9/huge.bin</url></file>
              <file name="fine.bin"><size>3</size><url>http://127.0.0.1:9/fine.bin</url></file>
            </metalink>
            """
        let parsed = try MetalinkParser.parse(Data(document.utf8), source: "test.meta4")
        #expect(parsed.metalink.files.map(\.name) == ["fine.bin"])
        #expect(parsed.problems.contains { $0.contains("<size>") })
    }

    @Test("a Content-Range past 8 PiB is no range; a 416's length likewise")
    func contentRange() {
        #expect(ContentRange("bytes 0-9/10")?.total == 10)
        #expect(ContentRange("bytes 0-9/9223372036854775807") == nil)
        #expect(ContentRange("bytes 9223372036854775000-9223372036854775806/*") == nil)
        #expect(ContentRange.unsatisfiedLength("bytes */9223372036854775807") == nil)
        #expect(ContentRange.unsatisfiedLength("bytes */100") == 100)
    }

    @Test("sizes typed as options stop at 8 PiB; stored progress past it is not read")
    func optionsAndProgress() throws {
        #expect((try? ByteCount.parse("8000000000G")) == nil)
        #expect(try ByteCount.parse("1G") == 1 << 30)
        #expect(ByteRanges(parsing: "0-9223372036854775807") == nil)
        #expect(ByteRanges(parsing: "0-100")?.count == 100)
    }

    @Test("a store holding sizes no file has reopens: the size is unknown and the queue runs")
    func storeRestart() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        var hostile = Download(uris: ["http://127.0.0.1:9/a"])
        hostile.state = .paused
        hostile.totalBytes = 9_000_000_000_000_000_000
        hostile.completed = ByteRanges([0..<9_000_000_000_000_000_000])
        var second = Download(uris: ["http://127.0.0.1:9/b"])
        second.state = .paused
        second.totalBytes = .max
        try DownloadStore(path: StateDirectory.databasePath(in: state)).write(.init(upserts: [hostile, second]))
        for round in 0..<2 {
            let stored = try scratchStoredQueue(in: directory, checkpointInterval: 60)
            stored.queue.restore(stored.stored)
            let downloads = stored.queue.downloads
            #expect(downloads.map(\.totalBytes) == [-1, -1])
            #expect(downloads.allSatisfy { $0.bytesDone == 0 })
            #expect(stored.problems.contains { $0.contains("progress could not be read") } == (round == 0))
            stored.flush()
        }
    }

    @Test("saturating arithmetic holds at the bounds")
    func saturating() {
        #expect(Int64.max.adding(saturating: 1) == .max)
        #expect(Int64.min.adding(saturating: -1) == .min)
        #expect(Int64.max.dividedRoundingUp(by: 2) == 1 << 62)
        #expect(Int64(saturating: 1e300) == .max && Int(saturating: -Double.infinity) == .min)
        #expect(Int(saturating: .nan) == 0 && Int(saturating: 2.9) == 2)
    }
}
