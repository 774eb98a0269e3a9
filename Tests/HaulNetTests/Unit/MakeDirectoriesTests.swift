import Foundation
import HaulNet
import Testing

/// `PosixFile.makeDirectories`: `mkdir -p` with the system's own words when it cannot.
@Suite("Making directories")
struct MakeDirectoriesTests {
    @Test("missing parents are made, with the mode asked for; a directory already there is fine")
    func makesEveryLevel() throws {
        let root = try scratchDirectory("dirs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let deep = root + "/a/b/./c"
        #expect(PosixFile.makeDirectories(deep, mode: 0o700) == nil)
        var status = stat()
        #expect(stat(root + "/a/b/c", &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o077 == 0, "made 0700: nothing for group or others")
        #expect(PosixFile.makeDirectories(deep) == nil, "there already")
        #expect(PosixFile.makeDirectories(root + "/a/b/c/") == nil, "a trailing slash")
    }

    @Test("a file in the way above is named, with why; the directory asked for is not named again")
    func fileInTheWay() throws {
        let root = try scratchDirectory("dirs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8)))
        #expect(PosixFile.makeDirectories(root + "/file/state/haul") == root + "/file: Not a directory")
        #expect(PosixFile.makeDirectories(root + "/file") == "Not a directory")
        #expect(PosixFile.makeDirectories(root + "/file/") == "Not a directory")
        #expect(PosixFile.makeDirectories("") == "'': No such file or directory", "no path at all")
    }
}
