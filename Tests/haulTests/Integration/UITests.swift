import Foundation
import HaulTestSupport
import Testing

/// The full-screen UI run as a person runs it: the built binary in a tmux pane, keys typed,
/// the screen read back.
@Suite("haul full-screen UI", .serialized)
struct UITests {
    private func session(_ arguments: [String], in directory: URL, environment: String = "") throws -> TmuxSession {
        try TmuxSession.haul(arguments, in: directory, environment: environment)
    }

    /// Sends `signal` to the haul downloading the fault server's `key`: haul's own command line
    /// starts with its path (the shell around it does not).
    private func signalHaul(_ signal: String, downloading key: String) async throws {
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        kill.arguments = ["-\(signal)", "-f", "^\(HaulProcess.binary.path) .*key=\(key)"]
        try kill.run()
        kill.waitUntilExit()
    }

    @Test("downloads show, keys work while they run, help opens, q asks and quits, the terminal comes back")
    func keys() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let slow = server.url("/file/4000000?key=\(UUID())&pace=8192").absoluteString
        let fast = server.url("/file/70000?key=\(UUID())").absoluteString
        let tmux = try session([slow, fast, "-d", "dl"], in: directory)

        let started = await tmux.wait { $0.contains("✔ done") && $0.contains("▶ active") }
        #expect(started.held, "\(started.text)")
        #expect(started.text.contains("? Help"))

        try tmux.send("?")
        #expect(await tmux.wait { $0.contains("haul: keys") && $0.contains("retry every failed download") }.held)
        // A stray key keeps the help; Esc closes it.
        try tmux.send("x")
        try await Task.sleep(for: .milliseconds(200))
        #expect(tmux.capture().contains("haul: keys"))
        try tmux.send("Escape")
        #expect(await tmux.wait { $0.contains("STATE") }.held)

        try tmux.send("Enter")
        let detail = await tmux.wait {
            $0.contains("saved as") && $0.contains("HTTP/1.1 206") || $0.contains("HTTP/1.1 200")
        }
        #expect(detail.held, "\(detail.text)")

        try tmux.send("p")
        #expect(await tmux.wait { $0.contains("‖ paused") }.held)
        try tmux.send("p")
        #expect(await tmux.wait { $0.contains("▶ active") }.held)

        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("Quit? The queue is saved") }.held)
        try tmux.send("n")
        #expect(await tmux.wait { $0.contains("nothing changed") }.held)
        try tmux.send("q", "y")
        let ended = await tmux.wait { $0.contains("EXIT=0") }
        #expect(ended.held, "\(ended.text)")
        #expect(ended.text.contains("1 download saved in the queue"))
        #expect(!ended.text.contains("? Help"), "the full screen is gone")
        let saved = try Data(contentsOf: directory.appendingPathComponent("dl/70000"))
        #expect(saved.count == 70000 && TestPattern.matches(saved))
    }

    @Test("resizing redraws; below 40×12 a note; SIGTERM restores the terminal and keeps the queue")
    func resizeAndTerminate() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let slow = server.url("/file/4000000?key=\(key)&pace=8192").absoluteString
        let tmux = try session([slow, "-d", "dl"], in: directory, environment: "NO_COLOR=1")
        #expect(await tmux.wait { $0.contains("▶ active") }.held)

        try tmux.resize(width: 40, height: 12)
        let small = await tmux.wait { text in
            text.split(separator: "\n").allSatisfy { $0.count <= 40 } && text.contains("? Help")
        }
        #expect(small.held, "\(small.text)")
        try tmux.resize(width: 30, height: 8)
        #expect(await tmux.wait { $0.contains("terminal too small") }.held)
        try tmux.resize(width: 100, height: 30)
        #expect(await tmux.wait { $0.contains("PROGRESS") }.held)

        try await signalHaul("TERM", downloading: key)
        let ended = await tmux.wait { $0.contains("EXIT=") }
        #expect(
            ended.held && ended.text.contains("EXIT=0") && ended.text.contains("saved in the queue"), "\(ended.text)")
    }

    @Test("a crash restores the terminal first, then says what happened")
    func crash() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let tmux = try session([server.url("/file/4000000?key=\(key)&pace=8192").absoluteString], in: directory)
        #expect(await tmux.wait { $0.contains("▶ active") }.held)
        try await signalHaul("SEGV", downloading: key)
        let ended = await tmux.wait { $0.contains("EXIT=") }
        #expect(
            ended.text.contains("haul crashed; the terminal is restored") && ended.text.contains("EXIT=139"),
            "\(ended.text)")
        #expect(!ended.text.contains("? Help"))
    }

    @Test("a download refused with 401 says it needs a login; u asks for a user and a hidden password; it completes")
    func credentials() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let url = server.url("/auth/digest?user=ann&pass=tmux-s3cret").absoluteString
        let tmux = try session([url, "-o", "page.txt", "--no-netrc"], in: directory)
        let told = await tmux.wait { $0.contains("page.txt needs a login: select it and press u") }
        #expect(told.held, "\(told.text)")
        try tmux.send("u")
        let asked = await tmux.wait { $0.contains("User name for 127.0.0.1") }
        #expect(asked.held, "\(asked.text)")
        try tmux.send("-l", "ann")
        try tmux.send("Enter")
        #expect(await tmux.wait { $0.contains("Password for ann at 127.0.0.1") }.held)
        try tmux.send("-l", "tmux-s3cret")
        let typed = await tmux.wait { $0.contains("•••••••••••") }
        #expect(typed.held && !typed.text.contains("tmux-s3cret"), "\(typed.text)")
        try tmux.send("Enter")
        let done = await tmux.wait { $0.contains("✔ done") }
        #expect(done.held && !done.text.contains("tmux-s3cret"), "\(done.text)")
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
        #expect(
            String(decoding: try Data(contentsOf: directory.appendingPathComponent("page.txt")), as: UTF8.self)
                == "welcome")
    }

    @Test("i with a URL imports a queue file from a server while the screen goes on; a bad URL says why")
    func importByURL() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = [server.url("/bytes/3000").absoluteString, "  out=imported.bin"]
        let url = server.queueFileURL(lines: list, key: UUID().uuidString).absoluteString
        let tmux = try session([], in: directory, environment: "XDG_CACHE_HOME='\(directory.path)-cache'")
        #expect(await tmux.wait { $0.contains("? Help") }.held)
        try tmux.send("i")
        #expect(await tmux.wait { $0.contains("a path or a URL") }.held)
        try tmux.send("-l", url)
        try tmux.send("Enter")
        let imported = await tmux.wait { $0.contains("1 entry queued") && $0.contains("✔ done") }
        #expect(imported.held, "\(imported.text)")
        try tmux.send("i")
        try tmux.send("-l", server.url("/status/404").absoluteString)
        try tmux.send("Enter")
        let refused = await tmux.wait { $0.contains("could not be loaded") }
        #expect(refused.held && refused.text.contains("404"), "\(refused.text)")
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
        #expect(try Data(contentsOf: directory.appendingPathComponent("imported.bin")).count == 3000)
    }
}
