import Foundation
import HaulTestSupport

// MARK: - Aria2cProcess

/// Debian's `aria2c --enable-rpc` (which `make test` installs) on a free loopback port with the
/// secret `sesame`, saving into `directory`: the real aria2 that haul's daemon is compared with,
/// and that haul's UI attaches to. Killed on `stop()`.
final class Aria2cProcess {
    let port: Int
    private let process: Process

    /// Starts aria2c with `extra` options and waits (up to 2 s) until it accepts connections.
    init(saving directory: URL, _ extra: [String] = []) async throws {
        port = try LoopbackPort.free()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/aria2c")
        process.arguments =
            [
                "--enable-rpc", "--rpc-listen-port", String(port), "--rpc-secret", "sesame", "-d", directory.path,
                "--quiet=true", "--no-conf",
            ] + extra
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        for _ in 0..<100 where !LoopbackPort.accepts(port) { try await Task.sleep(for: .milliseconds(20)) }
    }

    func stop() {
        // The test process blocks SIGTERM, and aria2c inherits the mask: it ignores terminate().
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
