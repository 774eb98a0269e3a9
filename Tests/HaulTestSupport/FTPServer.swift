import Foundation
import Synchronization

// MARK: - FTPServer

/// A real FTP server (pyftpdlib, from `.build/venv`, which `make test` makes) on 127.0.0.1 at an
/// ephemeral port, serving `root` to user `haul` (password `secret`) and to anonymous; with
/// `tls`, explicit FTPS as well; with `rate`, each data connection capped. Stopped on deinit.
public final class FTPServer: Sendable {
    public let port: Int
    /// Every command the server received, one a line (`<- REST 1000`).
    public let logPath: String
    private let process: Process

    public static let user = "haul"
    public static let password = "secret"

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `sizeReply`: every SIZE is answered `213 sizeReply`, as a lying or broken server answers.
    public init(
        root: URL, tls: (certificate: String, key: String)? = nil, rate: Int? = nil, sizeReply: String? = nil
    ) throws {
        guard let python = TestVenv.python else {
            throw SetupError(description: "no .build/venv/bin/python: run `make test`, which makes it with pyftpdlib")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Scripts/ftp_server.py").path
        logPath = root.path + ".ftp.log"
        var arguments = [script, root.path, logPath]
        if let tls { arguments += ["--tls", tls.certificate, tls.key] }
        if let rate { arguments += ["--rate", String(rate)] }
        if let sizeReply { arguments += ["--size", sizeReply] }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // "port N", once it listens.
        var line = ""
        while !line.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(line.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        else {
            process.terminate()
            throw SetupError(description: "the FTP server did not start: '\(line)'")
        }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `ftp://[haul:secret@]127.0.0.1:PORT/PATH`.
    public func url(_ path: String, login: Bool = false) -> String {
        "ftp://\(login ? "\(FTPServer.user):\(FTPServer.password)@" : "")127.0.0.1:\(port)/\(path)"
    }

    /// The commands received so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }
}
