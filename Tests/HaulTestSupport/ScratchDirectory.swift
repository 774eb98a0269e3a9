import Foundation

// MARK: - ScratchDirectory

/// A new empty directory under the temporary directory for one test, named `PREFIX-UUID`.
public enum ScratchDirectory {
    public static func make(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
