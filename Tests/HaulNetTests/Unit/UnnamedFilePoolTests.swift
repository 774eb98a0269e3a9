import CFiles
import Foundation
import Testing

@testable import HaulNet

/// Files with no name made ahead: a directory is stocked from its second file on, its files
/// have no name until linked, and only the directories used last keep a stock.
@Suite("Unnamed file pool")
struct UnnamedFilePoolTests {
    @Test("one file is made at once; from the second the directory is stocked; stocked files have no name")
    func stocksFromTheSecondFile() throws {
        let directory = try scratchDirectory("pool")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = UnnamedFilePool(depth: 4, directoryLimit: 2)
        let first = pool.take(in: directory)
        #expect(first >= 0)
        pool.settle()
        #expect(pool.readyCount(in: directory) == 0, "one file does not cost a stock")
        let second = pool.take(in: directory)
        pool.settle()
        #expect(pool.readyCount(in: directory) == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "made ahead, nothing named")
        let third = pool.take(in: directory)
        #expect(pool.readyCount(in: directory) == 3, "taken from the stock")
        // A file taken from the stock is an ordinary file with no name: written, then linked.
        #expect(pwrite(third, "abc", 3, 0) == 3)
        #expect(haul_link_descriptor(third, directory + "/named") == 0)
        #expect(try String(contentsOfFile: directory + "/named", encoding: .utf8) == "abc")
        for descriptor in [first, second, third] { close(descriptor) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["named"])
    }

    @Test("a stock is made again once it falls below a quarter, not before")
    func refillsBelowAQuarter() throws {
        let directory = try scratchDirectory("pool")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = UnnamedFilePool(depth: 8, directoryLimit: 2)
        var taken = [pool.take(in: directory), pool.take(in: directory)]
        pool.settle()
        #expect(pool.readyCount(in: directory) == 8)
        for _ in 0..<6 { taken.append(pool.take(in: directory)) }
        pool.settle()
        #expect(pool.readyCount(in: directory) == 2, "a quarter left: not made again yet")
        taken.append(pool.take(in: directory))
        pool.settle()
        #expect(pool.readyCount(in: directory) == 8, "below a quarter: made up to the depth")
        #expect(taken.allSatisfy { $0 >= 0 })
        for descriptor in taken { close(descriptor) }
    }

    @Test("past the directory limit the one used longest ago gives its stock back")
    func directoryLimit() throws {
        let directories = try (0..<3).map { _ in try scratchDirectory("pool") }
        defer { for directory in directories { try? FileManager.default.removeItem(atPath: directory) } }
        let pool = UnnamedFilePool(depth: 4, directoryLimit: 2)
        for directory in directories {
            close(pool.take(in: directory))
            close(pool.take(in: directory))
            pool.settle()
        }
        #expect(directories.map { pool.readyCount(in: $0) } == [0, 4, 4])
    }

    @Test("a directory that is not there: no file, and the error of making one")
    func missingDirectory() throws {
        let pool = UnnamedFilePool(depth: 4, directoryLimit: 2)
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("haul-none-\(UUID())").path
        #expect(pool.take(in: missing) == -1)
        #expect(errno == ENOENT)
        #expect(pool.take(in: missing) == -1)
        pool.settle()
        #expect(pool.readyCount(in: missing) == 0)
    }
}
