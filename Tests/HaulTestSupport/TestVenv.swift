import Foundation

// MARK: - TestVenv

/// The Python virtual environment `make test` makes under `.build/venv`, with the test tools
/// from PyPI (aria2p, pyftpdlib).
public enum TestVenv {
    /// Its python, or nil before `make test` made it.
    public static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}
