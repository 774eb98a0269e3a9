import Foundation
import HaulTestSupport
import Testing

// MARK: - DaemonServiceTests

/// `contrib/haul-daemon.service`, the systemd user unit `make install` and the `.deb` ship: its
/// command, run as systemd runs it (`%h` the home, `%E` the config directory), starts the
/// daemon with a secret read from a file it makes (mode 0600) at the first start and reads at
/// the next; a file others may read, or one with a secret given too, is refused; a secret given
/// on the command line is hidden from `ps`.
@Suite("haul daemon as a systemd user service", .serialized)
struct DaemonServiceTests {
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("contrib/haul-daemon.service")

    /// The unit's command's arguments after `haul`, with `%h` and `%E` as systemd fills them,
    /// on any free port.
    static func arguments(home: String) throws -> [String] {
        let text = try String(contentsOf: unit, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = line.dropFirst("ExecStart=".count).split(separator: " ").map {
            $0.replacingOccurrences(of: "%h", with: home).replacingOccurrences(of: "%E", with: home + "/.config")
        }
        #expect(words.first == "@BINDIR@/haul" && words.dropFirst().first == "daemon", "\(line)")
        return Array(words.dropFirst(2)).map { $0 == "6800" ? "0" : $0 }
    }

    @Test(
        "systemd-analyze finds nothing wrong in the unit",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/systemd-analyze")))
    func verified() throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "@BINDIR@", with: HaulProcess.binary.deletingLastPathComponent().path)
        let copy = directory.appendingPathComponent("haul-daemon.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let verified = try ToolOutput.run(
            "/bin/sh", ["-c", "/usr/bin/systemd-analyze verify --man=no '\(copy.path)' 2>&1"])
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
    }

    @Test("a secret on the command line is hidden from ps once read, as aria2c hides it; it still works")
    func secretHiddenFromPs() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(
            in: directory, ["--rpc-secret", "open-sesame", "--http-passwd=hunter2"])
        defer { daemon.stop() }
        let shown = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/cmdline", encoding: .utf8)
            .replacingOccurrences(of: "\0", with: " ")
        #expect(!shown.contains("open-sesame") && !shown.contains("hunter2"), "\(shown)")
        #expect(shown.contains("--rpc-secret *") && shown.contains("--http-passwd=*"), "\(shown)")
        let right = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:open-sesame\"]}")
        #expect(right.status == 200, "\(right)")
    }

    @Test("the unit's command makes a secret file at the first start, reads it at the next, and serves with it")
    func secretFromFile() async throws {
        let home = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(home) }
        let arguments = try Self.arguments(home: home.path)
        #expect(!arguments.contains("--rpc-secret"), "a secret on the command line is what ps shows")
        let file = home.path + "/.config/haul/rpc-secret"
        var secrets: [String] = []
        for start in 1...2 {
            let daemon = try await DaemonProcess.start(in: home, arguments, replacingDefaults: true)
            let secret = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            secrets.append(secret)
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode == 0o600 && secret.count == 32)
            #expect(daemon.stderr.contains("made a new secret in \(file)") == (start == 1), "\(daemon.stderr)")
            #expect(!daemon.stderr.contains(secret), "the log never shows the secret")
            let right = try await daemon.post(
                "{\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:\(secret)\"]}")
            #expect(right.status == 200, "\(right)")
            let none = try await daemon.post("{\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[]}")
            #expect(none.status == 400, "\(none)")
            daemon.stop()
        }
        #expect(secrets[0] == secrets[1], "the second start reads the secret the first made")

        // The full-screen queue attaches with the same file (a client reads it, never makes it).
        let daemon = try await DaemonProcess.start(in: home, arguments, replacingDefaults: true)
        defer { daemon.stop() }
        let url = "http://127.0.0.1:\(daemon.port)/jsonrpc"
        let session = try TmuxSession.haul(["--connect", url, "--rpc-secret-file", file], in: home)
        let attached = await session.wait { $0.contains("attached to \(url)") }
        #expect(attached.held, "\(attached.text)")
        try session.send("q")
        let missing = try await HaulProcess.run(
            ["--connect", url, "--rpc-secret-file", home.path + "/none"], in: home)
        #expect(missing.status == 1 && missing.stderr.contains("No such file or directory"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/none"))

        chmod(file, 0o644)
        let open = try await HaulProcess.run(["daemon"] + arguments, in: home)
        #expect(
            open.status == 1 && open.stderr.contains("may be read by others (mode 644): run chmod 600"),
            "\(open.stderr)")
        let both = try await HaulProcess.run(["daemon", "--rpc-secret", "s", "--rpc-secret-file", file], in: home)
        #expect(both.status == 28 && both.stderr.contains("give one of them"), "\(both.stderr)")
    }
}
