import Foundation

// MARK: - HaulProcess

/// The built `haul` binary run as a user runs it, in a scratch directory with its own state
/// directory beside it (`DIR-state`), so tests never share a store or touch the user's.
struct HaulProcess {
    struct Run {
        let status: Int32
        let stderr: String
    }

    /// The `haul` binary built beside this test bundle.
    static let binary: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("haul").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("haul")
    }()

    /// A new empty scratch directory.
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-get-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Removes a scratch directory and its state directory.
    static func cleanUp(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(atPath: directory.path + "-state")
    }

    /// Starts haul with `arguments` in `directory`; stderr goes to the returned pipe. With
    /// `fileSizeLimitKiB`, bash applies that limit (ulimit -f) and then becomes haul.
    static func start(_ arguments: [String], in directory: URL, stdin: String? = nil,
                      fileSizeLimitKiB: Int? = nil, environment extra: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        if let fileSizeLimitKiB {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-c", "ulimit -f \(fileSizeLimitKiB); exec '\(binary.path)' \(quoted)"]
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.path + "-state"
        environment.merge(extra) { $1 }
        process.environment = environment
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        return (process, errors)
    }

    /// Runs haul to its end.
    static func run(_ arguments: [String], in directory: URL, stdin: String? = nil, fileSizeLimitKiB: Int? = nil,
                    environment: [String: String] = [:]) throws -> Run {
        let (process, errors) = try start(arguments, in: directory, stdin: stdin, fileSizeLimitKiB: fileSizeLimitKiB,
                                          environment: environment)
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: String(decoding: output, as: UTF8.self))
    }
}
