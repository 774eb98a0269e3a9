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

    /// `sizeReply`: every SIZE is answered `213 sizeReply`, as a lying or broken server answers.
    public init(
        root: URL, tls: (certificate: String, key: String)? = nil, rate: Int? = nil, sizeReply: String? = nil
    ) throws {
        logPath = root.path + ".ftp.log"
        var arguments = [root.path, logPath]
        if let tls { arguments += ["--tls", tls.certificate, tls.key] }
        if let rate { arguments += ["--rate", String(rate)] }
        if let sizeReply { arguments += ["--size", sizeReply] }
        (process, port) = try TestVenv.startServer("ftp_server.py", arguments, what: "FTP (pyftpdlib)")
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
