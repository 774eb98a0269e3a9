import Foundation
import HaulTestSupport
import Testing

/// The full-screen queue over time, and the terminals it cannot draw on, as a person meets them
/// in a tmux pane.
@Suite("haul full-screen queue over time", .serialized)
struct UIQueueTests {
    @Test("downloads of an interrupted haul get never join the full-screen queue; the same haul get continues them")
    func getRunsStayApart() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let url = server.url("/file/20000000?key=\(key)&pace=32768").absoluteString
        let (process, errors) = try HaulProcess.start(["get", url], in: directory)
        let deadline = Date().addingTimeInterval(10)
        while server.fileRequests.requests(for: key).isEmpty, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(300))
        // Ctrl-C: haul writes its progress to the store and exits 7, aria2's "unfinished".
        kill(process.processIdentifier, SIGINT)
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 7)
        // Its automatic split may have added connections: the full-screen queue adds none.
        let asked = server.fileRequests.requests(for: key).count

        let tmux = try TmuxSession.haul([], in: directory, environment: "XDG_CONFIG_HOME=/nonexistent")
        let shown = await tmux.wait { $0.contains("the queue is empty") }
        #expect(shown.held, "\(shown.text)")
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
        #expect(server.fileRequests.requests(for: key).count == asked)

        server.fileRequests.liftPace(for: key)
        let again = try await HaulProcess.run(["get", url], in: directory)
        #expect(again.status == 0 && again.stderr.contains("continuing 1 download"), "\(again.stderr)")
        #expect(server.fileRequests.requests(for: key).last?.range?.hasPrefix("bytes=") == true)
    }

    @Test("r on a 404 says it failed again; C clears ended rows after a yes; t's theme is kept; ~ in import is home")
    func clearThemeAndHome() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = server.url("/bytes/300").absoluteString + "\n  out=listed.bin\n"
        try list.write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let urls = [server.url("/bytes/100").absoluteString, server.url("/status/404").absoluteString]
        let tmux = try TmuxSession.haul(
            urls + ["-d", "dl", "-m", "1"], in: directory,
            environment: "HOME='\(directory.path)' TERM=xterm-256color NO_COLOR=")
        #expect(
            await tmux.wait { $0.contains("✔ done") && $0.contains("✖ failed") && $0.contains("404 Not Found") }.held,
            "\(tmux.capture())")
        // r on the 404: tried again, and said so when it fails again.
        try tmux.send("Down")
        try tmux.send("r")
        let retried = await tmux.wait { $0.contains("404 failed again: 404 Not Found") }
        #expect(retried.held, "\(retried.text)")
        // A filter that hides every row says so, and Esc takes it back.
        try tmux.send("/")
        try tmux.send("-l", "xyz")
        try tmux.send("Enter")
        #expect(await tmux.wait { $0.contains("no download matches the filter 'xyz'") }.held, "\(tmux.capture())")
        try tmux.send("Escape")
        #expect(await tmux.wait { $0.contains("filter cleared: showing all 2") }.held, "\(tmux.capture())")

        try tmux.send("C")
        #expect(await tmux.wait { $0.contains("Clear 2 ended rows") }.held, "\(tmux.capture())")
        try tmux.send("y")
        #expect(await tmux.wait { $0.contains("the queue is empty") }.held, "\(tmux.capture())")

        try tmux.send("i")
        try tmux.send("-l", "~/list.txt")
        try tmux.send("Enter")
        #expect(await tmux.wait { $0.contains("listed.bin") && $0.contains("✔ done") }.held, "\(tmux.capture())")

        try tmux.send("t")
        let themed = await tmux.wait { $0.contains("theme: ") }
        #expect(themed.held, "\(themed.text)")
        let chosen =
            themed.text.split(separator: "\n").first { $0.contains("theme: ") }?
            .components(separatedBy: "theme: ").last?.trimmingCharacters(in: .whitespaces) ?? ""
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
        let config = try String(contentsOfFile: directory.path + "-config/haul/config.toml", encoding: .utf8)
        #expect(!chosen.isEmpty && config.contains("theme = \"\(chosen)\""), "\(chosen): \(config)")
    }

    @Test("on TERM=dumb haul says it cannot draw the queue and downloads as haul get does")
    func dumbTerminal() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let tmux = try TmuxSession.haul(
            [server.url("/bytes/500").absoluteString], in: directory, environment: "TERM=dumb")
        let ended = await tmux.wait { $0.contains("EXIT=") }
        #expect(
            ended.text.contains("cannot draw the full-screen queue") && ended.text.contains("EXIT=0"), "\(ended.text)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("500").path))
    }
}

/// A long queue file in the full-screen UI: the first frame comes before the file is read,
/// the count grows, and the keys work meanwhile.
@Suite("haul full-screen queue with a long queue file")
struct UILongQueueFileTests {
    @Test(
        "the first frame comes within about a second of a 200,000-entry file; the count grows to it; ? works meanwhile")
    func readBehindTheFirstFrame() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let lines = (0..<200_000).map { "http://127.0.0.1:9/f\($0)\n  pause=true\n" }.joined()
        try lines.write(to: directory.appendingPathComponent("long.txt"), atomically: true, encoding: .utf8)
        let started = Date()
        let tmux = try TmuxSession.haul(["-i", "long.txt"], in: directory, environment: "XDG_CONFIG_HOME=/nonexistent")
        let first = await tmux.wait(seconds: 10) { $0.contains(" haul ") }
        let firstFrame = Date().timeIntervalSince(started)
        #expect(first.held, "\(first.text)")
        try tmux.send("?")
        #expect(await tmux.wait { $0.contains("Help") || $0.contains("help") }.held, "\(tmux.capture())")
        try tmux.send("Escape")
        let all = await tmux.wait(seconds: 120) { $0.contains("200000 paused") }
        #expect(all.held, "\(all.text)")
        // Before the file was read: the whole read (a debug build on a loaded machine) takes
        // several times longer than the first frame.
        #expect(firstFrame < Date().timeIntervalSince(started) / 2, "first frame after \(firstFrame) s")
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
    }
}
