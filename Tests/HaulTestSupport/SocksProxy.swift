import Foundation

// MARK: - SocksProxy

/// A SOCKS5 proxy (Debian's microsocks, which `make test` installs) on 127.0.0.1, for tests.
public final class SocksProxy: Sendable {
    public let port: Int
    private let process: Process

    /// Starts microsocks on a free port, asking for `user`/`password`; its outgoing connections
    /// come from `outgoingAddress` (a loopback address), so a server can tell them apart.
    public static func start(user: String, password: String, outgoingAddress: String) throws -> SocksProxy {
        let binary = try NginxServer.locate("microsocks", in: ["/usr/bin", "/usr/local/bin"])
        let port = try LoopbackPort.free()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-i", "127.0.0.1", "-p", String(port), "-u", user, "-P", password, "-b", outgoingAddress]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready once it accepts connections.
        for _ in 0..<100 where !LoopbackPort.accepts(port) {
            usleep(20_000)
        }
        guard LoopbackPort.accepts(port) else {
            kill(process.processIdentifier, SIGKILL)
            throw NginxServer.SetupError(description: "microsocks did not start listening on port \(port)")
        }
        return SocksProxy(port: port, process: process)
    }

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    /// Stops it: SIGKILL, as microsocks does not end on SIGTERM.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
