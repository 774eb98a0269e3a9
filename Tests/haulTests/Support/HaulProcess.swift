import Foundation
import HaulTestSupport
import Synchronization

// MARK: - HaulProcess

/// The built `haul` binary run as a user runs it, in a scratch directory with its own state
/// directory beside it (`DIR-state`), so tests never share a store or touch the user's.
struct HaulProcess {
    struct Run {
        let status: Int32
        let stderr: String
        /// What haul wrote to stdout, when the run was asked to keep it.
        var stdout = Data()
    }

    /// The `haul` binary built beside this test bundle.
    static let binary: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("haul").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("haul")
    }()

    /// A new empty scratch directory.
    /// Runs `command` with /bin/sh in `directory`; returns its stdout, trimmed.
    static func shell(_ command: String, in directory: URL) throws -> String {
        try ToolOutput.run("/bin/sh", ["-c", command], in: directory).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

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
    static func start(
        _ arguments: [String], in directory: URL, stdin: String? = nil,
        fileSizeLimitKiB: Int? = nil, environment extra: [String: String] = [:],
        output: Pipe? = nil
    ) throws -> (Process, Pipe) {
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
        process.standardOutput = output ?? FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        return (process, errors)
    }

    /// Runs haul to its end. Awaited, not blocked on: the pipes are read and the process waited
    /// for on a thread of its own, so a test waiting for haul leaves Swift concurrency's few
    /// threads (two on a two-core machine) to the tests that run beside it.
    static func run(
        _ arguments: [String], in directory: URL, stdin: String? = nil, fileSizeLimitKiB: Int? = nil,
        environment: [String: String] = [:], keepingStdout: Bool = false
    ) async throws -> Run {
        let stdout = keepingStdout ? Pipe() : nil
        let (process, errors) = try start(
            arguments, in: directory, stdin: stdin, fileSizeLimitKiB: fileSizeLimitKiB,
            environment: environment, output: stdout)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                // Read side by side, so that neither pipe fills while the other is read.
                let kept = Mutex(Data())
                let reader = Thread {
                    kept.withLock { $0 = stdout?.fileHandleForReading.readDataToEndOfFile() ?? Data() }
                }
                reader.start()
                let output = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
                continuation.resume(
                    returning: Run(
                        status: process.terminationStatus,
                        stderr: String(decoding: output, as: UTF8.self),
                        stdout: kept.withLock { $0 }))
            }
        }
    }

    /// Starts haul with `arguments`, waits (10 s at most) until `partial` holds more than `bytes`,
    /// lets it run 0.3 s more, and kills it with SIGKILL, as a crash would.
    static func killed(_ arguments: [String], in directory: URL, once partial: URL, holds bytes: Int) async throws {
        let (process, errors) = try start(arguments, in: directory)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let written = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
            if written > bytes { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGKILL)
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
    }

    /// Whether `file` holds exactly `size` bytes of the test pattern.
    static func isWhole(_ file: URL, size: Int) -> Bool {
        guard let data = try? Data(contentsOf: file) else { return false }
        return data.count == size && TestPattern.matches(data)
    }
}
