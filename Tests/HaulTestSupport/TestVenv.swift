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

    /// Starts `Scripts/NAME` (beside this file) with the venv's python and `arguments`, and waits
    /// for its first line, "port N"; returns the process and N. `what` names the server in errors.
    public static func startServer(
        _ name: String, _ arguments: [String], what: String
    ) throws -> (process: Process, port: Int) {
        guard let python else {
            throw SetupError(description: "no .build/venv/bin/python: run `make test`, which makes it with \(what)")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Scripts/\(name)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(line.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        else {
            process.terminate()
            throw SetupError(description: "the \(what) server did not start: '\(line)'")
        }
        return (process, port)
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }
}
