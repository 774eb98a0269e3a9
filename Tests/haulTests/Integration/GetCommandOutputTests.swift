import Foundation
import HaulTestSupport
import Testing

/// Where the body goes and what haul says about it: `-o` with any path, `-o -`, `--dry-run`,
/// `-v`, and config.toml's options under the command line's.
@Suite("haul get output options")
struct GetCommandOutputTests {
    /// config.toml's path under a configuration home made in `directory`, and the environment
    /// that points haul at it.
    private func configFile(in directory: URL) throws -> (file: URL, environment: [String: String]) {
        let config = directory.appendingPathComponent("config/haul")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        return (
            config.appendingPathComponent("config.toml"),
            ["XDG_CONFIG_HOME": directory.appendingPathComponent("config").path]
        )
    }

    @Test("-o takes an absolute path, or a path relative to -d; -o - writes the body to stdout and no file")
    func outPaths() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let elsewhere = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(elsewhere) }
        let url = server.url("/bytes/3000").absoluteString

        let absolute = try await HaulProcess.run(["get", url, "-o", elsewhere.path + "/new/x.bin"], in: directory)
        #expect(absolute.status == 0, "\(absolute.stderr)")
        #expect(try Data(contentsOf: elsewhere.appendingPathComponent("new/x.bin")).count == 3000)
        let relative = try await HaulProcess.run(["get", url, "-d", "dl", "-o", "sub/y.bin"], in: directory)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("dl/sub/y.bin")).count == 3000)

        let piped = try await HaulProcess.run(["get", url, "-o", "-"], in: directory, keepingStdout: true)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == Data(TestPattern.bytes(count: 3000)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["dl"])
        let missing = try await HaulProcess.run(
            ["get", server.url("/status/404").absoluteString, "-o", "-"], in: directory,
            keepingStdout: true)
        #expect(missing.status == 3 && missing.stdout.isEmpty, "\(missing.stderr)")
        #expect(missing.stderr.contains("404"), "\(missing.stderr)")
        // Piped without a terminal: no status line in stderr.
        #expect(!piped.stderr.contains("%"), "\(piped.stderr)")
    }

    @Test("-o - on a terminal shows the status line on stderr while the body goes to stdout")
    func standardOutputProgress() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // 400 KB at 64 KiB every 100 ms: some 0.6 s, so a line is shown before the end.
        let url = server.url("/file/400000?key=\(UUID().uuidString)&pace=65536").absoluteString
        let session = try TmuxSession(
            command: "cd '\(directory.path)' && XDG_STATE_HOME='\(directory.path)-state' '\(HaulProcess.binary.path)' "
                + "get -o - '\(url)' > body.bin; echo EXIT=$?; sleep 30", width: 80, height: 24)
        let ended = await session.wait { $0.contains("EXIT=") }
        #expect(ended.text.contains("EXIT=0") && ended.text.contains("400000 / ") == false, "\(ended.text)")
        #expect(ended.text.contains("390.6 KiB / 390.6 KiB  100%"), "\(ended.text)")
        let body = try Data(contentsOf: directory.appendingPathComponent("body.bin"))
        #expect(body.count == 400_000 && TestPattern.matches(body))
    }

    @Test("--dry-run says each file's name and size, saves nothing and says so; a missing one exits 3")
    func dryRun() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(
            ["get", "--dry-run", server.url("/bytes/4096").absoluteString, server.url("/bytes/2048").absoluteString],
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("found") && run.stderr.contains("4096 (4.0 KiB)"), "\(run.stderr)")
        // Nothing was saved, so the summary does not say so.
        #expect(run.stderr.contains("2 downloads: 2 found, 0 failed") && !run.stderr.contains("saved"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let missing = try await HaulProcess.run(
            ["get", "--dry-run", server.url("/status/404").absoluteString], in: directory)
        #expect(missing.status == 3, "\(missing.stderr)")
    }

    @Test("-v prints the hops and every response header, a cookie's value as ***")
    func verbose() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(
            ["get", "-v", "-o", "c.txt", server.url("/cookies?session=s3cret").absoluteString],
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("< HTTP/1.1 200") && run.stderr.contains("< Set-Cookie: ***"), "\(run.stderr)")
        #expect(!run.stderr.contains("s3cret; Path"), "\(run.stderr)")
    }

    @Test("-v prints the request too: its Range and If-Range, its headers, a credential's value as ***")
    func verboseRequest() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        try Data(TestPattern.bytes(count: 1000)).write(to: directory.appendingPathComponent("f.bin"))
        let url = server.url("/file/5000").absoluteString
        let run = try await HaulProcess.run(
            ["get", "-v", "-c", "--header", "X-Api-Key: t0ken", "-o", "f.bin", url], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        for line in [
            "> GET \(url)", "> Range: bytes=1000-", "> User-Agent: haul/", "> X-Api-Key: ***", "< HTTP/1.1 206",
        ] {
            #expect(run.stderr.contains(line), "\(line) in \(run.stderr)")
        }
        #expect(!run.stderr.contains("t0ken"), "\(run.stderr)")
    }

    @Test("config.toml sets any option by its long name; the command line wins; a bad value names file and line")
    func configFile() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (file, environment) = try configFile(in: directory)
        try "dir = \"from-config\"\nquiet = true\nheader = [\"X-A: 1\"]\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let url = server.url("/bytes/100").absoluteString
        let configured = try await HaulProcess.run(["get", url], in: directory, environment: environment)
        #expect(configured.status == 0 && configured.stderr.isEmpty, "\(configured.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("from-config/100").path))
        let overridden = try await HaulProcess.run(["get", "-d", "mine", url], in: directory, environment: environment)
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("mine/100").path))

        try "\n\nmax-tries = \"many\"\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try await HaulProcess.run(["get", url], in: directory, environment: environment)
        #expect(bad.status == 28, "\(bad.stderr)")
        #expect(bad.stderr.contains("config.toml:3: max-tries"), "\(bad.stderr)")
    }

    @Test("config.toml: a flag's false, a UI-only setting under haul get, and a misspelled name")
    func configFlags() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (file, environment) = try configFile(in: directory)
        try "netrc = false\nheadless = true\nquiet = false\ncheck-certificate = true\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(
            ["get", server.url("/bytes/10").absoluteString], in: directory,
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        try "quiet2 = false\n".write(to: file, atomically: true, encoding: .utf8)
        let misspelled = try await HaulProcess.run(
            ["get", server.url("/bytes/10").absoluteString], in: directory,
            environment: environment)
        #expect(misspelled.status == 28 && misspelled.stderr.contains("config.toml:1: quiet2"), "\(misspelled.stderr)")
    }

    @Test("--ask-password needs --http-user, and asks on the terminal without echo")
    func askPassword() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let url = server.url("/auth/basic?user=u&pass=pw").absoluteString
        let alone = try await HaulProcess.run(["get", "--ask-password", url], in: directory)
        #expect(alone.status == 28 && alone.stderr.contains("--http-user"), "\(alone.stderr)")

        let session = try TmuxSession.haul(
            ["get", "--http-user", "u", "--ask-password", "-o", "a.txt", url],
            in: directory)
        #expect(await session.wait { $0.contains("Password for u:") }.held, "\(session.capture())")
        try session.send("pw", "Enter")
        let ended = await session.wait { $0.contains("EXIT=") }
        #expect(ended.text.contains("EXIT=0") && !ended.text.contains("pw\n"), "\(ended.text)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("a.txt").path))
    }

    @Test("on an 80-column terminal the status line fits: a long name is shortened in the middle, numbers stay")
    func statusLineFits() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let name = String(repeating: "a-very-long-file-name-", count: 6) + "end.iso"
        let url = server.url("/file/3000000?key=\(UUID())&pace=8192").absoluteString
        let session = try TmuxSession.haul(["get", "-o", name, url], in: directory, width: 80, height: 24)
        let shown = await session.wait { $0.contains("ETA") }
        #expect(shown.held, "\(shown.text)")
        let line = shown.text.split(separator: "\n").first { $0.contains("ETA") } ?? ""
        #expect(line.hasPrefix("a-very-long") && line.contains("…") && line.contains("end.iso"), "\(line)")
        #expect(line.contains("%") && line.contains("/s"), "\(line)")
        #expect(shown.text.split(separator: "\n").count <= 2, "the line wrapped: \(shown.text)")
    }

    @Test("a retry line says how long the wait is, and names the download once")
    func retryLine() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let url = server.url("/file/1000?key=\(UUID())&fail=503&times=1&retryAfter=1").absoluteString
        let run = try await HaulProcess.run(["get", "-o", "r.bin", url], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let retry = run.stderr.split(separator: "\n").first { $0.hasPrefix("retrying") } ?? ""
        #expect(retry.contains("r.bin in 1 s (attempt 1 failed: the server answered 503"), "\(run.stderr)")
        #expect(!retry.contains("127.0.0.1"), "\(retry)")
    }
}
