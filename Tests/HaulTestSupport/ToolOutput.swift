import Foundation

// MARK: - ToolOutput

/// Runs a program to its end and returns what it wrote to stdout (stderr goes to /dev/null):
/// the test fixtures' one way of asking a tool (ssh-keygen, openssl, sh) for an answer.
public enum ToolOutput {
    /// `tool` with `arguments`, in `directory` when given; its exit status and stdout.
    public static func run(
        _ tool: String, _ arguments: [String], in directory: URL? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
