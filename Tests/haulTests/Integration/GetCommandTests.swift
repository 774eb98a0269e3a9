import Foundation
import HaulTestSupport
import Testing

/// `haul get` run as a user runs it: the built binary, against the fault server.
@Suite("haul get")
struct GetCommandTests {
    func haul(
        _ arguments: [String], in directory: URL, stdin: String? = nil,
        fileSizeLimitKiB: Int? = nil
    ) async throws -> HaulProcess.Run {
        try await HaulProcess.run(arguments, in: directory, stdin: stdin, fileSizeLimitKiB: fileSizeLimitKiB)
    }

    func scratch() throws -> URL {
        try HaulProcess.scratch()
    }

    @Test("downloads several URLs, names them, exits 0")
    func downloads() async throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await haul(
            [
                "get", server.url("/bytes/3000000").absoluteString, server.url("/chain/2").absoluteString,
                "-d", "out",
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("out/3000000"))
        #expect(saved.count == 3_000_000 && TestPattern.matches(saved))
        #expect(try Data(contentsOf: directory.appendingPathComponent("out/0")).count == 100)
        #expect(run.stderr.contains("2 downloads: 2 saved, 0 failed"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/3000000.part").path))
    }

    @Test("a list of 12 files prints the first 5 saved lines and a summary with the bytes; -v lists each")
    func longListSummed() async throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = (1...12).map { server.url("/bytes/\(1000 + $0)").absoluteString }.joined(separator: "\n")
        try Data(list.utf8).write(to: directory.appendingPathComponent("list.txt"))
        let run = try await haul(["get", "-i", "list.txt", "-d", "short"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = run.stderr.split(separator: "\n").filter { $0.hasPrefix("saved ") }
        #expect(saved.count == 5, "\(run.stderr)")
        #expect(run.stderr.contains("…the other files saved are counted at the end (-v lists each)"), "\(run.stderr)")
        #expect(run.stderr.contains("12 downloads: 12 saved, 0 failed, 11.8 KiB in "), "\(run.stderr)")
        let verbose = try await haul(["get", "-v", "-i", "list.txt", "-d", "each"], in: directory)
        #expect(
            verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("saved ") }.count == 12, "\(verbose.stderr)")
    }

    @Test("a hostile Content-Disposition cannot escape the directory or reach the terminal")
    func hostileName() async throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { HaulProcess.cleanUp(directory) }
        let value = "attachment; filename=\"../../evil\u{1B}[2J.txt\""
        let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let run = try await haul(["get", server.url("/disposition?value=\(query)").absoluteString], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["_.._evil.txt"])
        #expect(!run.stderr.contains("\u{1B}[2J"))
    }

    @Test("a server that trickles (10 bytes a second) is timed out by default and said to be too slow")
    func trickleTimesOut() async throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { HaulProcess.cleanUp(directory) }
        let url = server.url("/file/100000?key=\(UUID().uuidString)&trickle=1").absoluteString
        let start = Date()
        let run = try await haul(["get", url, "--timeout", "2", "--max-tries", "1"], in: directory)
        #expect(run.status == 2, "aria2's code for a timeout: \(run.stderr)")
        #expect(run.stderr.contains("too slow"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("an error status, a dropped body and a bad flag each exit non-zero with a clear message")
    func failures() async throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { HaulProcess.cleanUp(directory) }
        let missing = try await haul(["get", server.url("/status/404").absoluteString], in: directory)
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("the server answered 404 Not Found"))

        // A resumable body keeps what it received; a small one (a file with no name) leaves nothing.
        let dropped = try await haul(
            ["get", "-m", "1", "--resumable-above=0", server.url("/drop/1600000").absoluteString, "-o", "d.bin"],
            in: directory)
        #expect(dropped.status == 6)
        #expect(dropped.stderr.contains("connection was lost"))
        #expect(dropped.stderr.contains("d.bin.part"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.bin").path))
        let small = try await haul(
            ["get", "-m", "1", server.url("/drop/1600000").absoluteString, "-o", "s.bin"], in: directory)
        #expect(small.status == 6 && small.stderr.contains("connection was lost") && !small.stderr.contains("kept"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("s.bin") }
        #expect(left.isEmpty, "\(left)")

        let badFlag = try await haul(
            ["get", "--max-download-limit", "fast", server.url("/bytes/1").absoluteString], in: directory)
        #expect(badFlag.status == 28)
        #expect(badFlag.stderr.contains("'fast' is not a size"))

        let badScheme = try await haul(["get", "file:///etc/passwd"], in: directory)
        #expect(badScheme.status == 28)
        #expect(badScheme.stderr.contains("unsupported scheme 'file'"))
    }
}

/// `haul get -i`: queue files, standard input, sessions, and a full disk.
@Suite("haul get with queue files")
struct GetQueueFileTests {
    let runner = GetCommandTests()

    @Test("a queue file with a bad line: problems by FILE:LINE, the rest downloaded, exit 1")
    func queueFile() async throws {
        let server = try FaultServer.shared()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let queue = """
            # two good, one bad
            \(server.url("/file/1000?key=\(UUID())"))
              out=one.bin
            \(server.url("/file/2000?key=\(UUID())"))
              split=many
              out=two.bin
            """
        try queue.write(to: directory.appendingPathComponent("q.txt"), atomically: true, encoding: .utf8)
        let run = try await runner.haul(["get", "-i", "q.txt", "-j", "2"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("q.txt:5: split: 'many' is not a whole number"))
        #expect(run.stderr.contains("q.txt: 2 entries queued, 1 line rejected"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("one.bin")).count == 1000)
        #expect(try Data(contentsOf: directory.appendingPathComponent("two.bin")).count == 2000)
    }

    @Test("a queue file from a pipe is read; an empty one or a directory is a clear error")
    func queueFileKinds() async throws {
        let server = try FaultServer.shared()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let fifo = directory.appendingPathComponent("list.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            try? "\(server.url("/file/700?key=\(UUID())"))\n  out=piped.bin\n".write(
                toFile: fifo, atomically: false, encoding: .utf8)
        }
        writer.start()
        let piped = try await runner.haul(["get", "-q", "-i", "list.fifo"], in: directory)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("piped.bin")).count == 700)

        let empty = try await runner.haul(["get", "-q", "-i", "/dev/null"], in: directory)
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("nothing to download: /dev/null holds no usable entry"))
        let folder = try await runner.haul(["get", "-i", "/tmp"], in: directory)
        #expect(folder.status == 28)
        #expect(folder.stderr.contains("queue file '/tmp' is a directory"))
    }

    @Test("-i - reads standard input; --save-session keeps what did not finish")
    func stdinAndSession() async throws {
        let server = try FaultServer.shared()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = "\(server.url("/file/500?key=\(UUID())"))\n\(server.url("/status/404"))\n"
        let run = try await runner.haul(
            ["get", "-i", "-", "-m", "1", "--save-session", "session.txt"], in: directory, stdin: list)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("the server answered 404 Not Found"))
        let session = try String(contentsOf: directory.appendingPathComponent("session.txt"), encoding: .utf8)
        #expect(session.contains("/status/404") && !session.contains("/file/500"))
        #expect(session.contains(" gid="))
    }

    @Test("a queue file's priority, speed limit and piece order are kept in the session, as aria2 keeps options")
    func optionsKeptInSession() async throws {
        let server = try FaultServer.shared()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = """
            \(server.url("/status/404"))
              priority=3
              max-download-limit=100K
              stream-piece-selector=inorder
            \(server.url("/status/410"))
              priority=-2

            """
        try list.write(to: directory.appendingPathComponent("q.txt"), atomically: true, encoding: .utf8)
        let run = try await runner.haul(
            ["get", "-i", "q.txt", "-m", "1", "--save-session", "session.txt"], in: directory)
        #expect(run.status != 0, "\(run.stderr)")
        let session = try String(contentsOf: directory.appendingPathComponent("session.txt"), encoding: .utf8)
        for line in [" priority=3", " max-download-limit=102400", " stream-piece-selector=inorder", " priority=-2"] {
            #expect(session.contains(line), "\(line) in \(session)")
        }
        let again = try await runner.haul(["get", "-i", "session.txt", "-m", "1", "--dry-run"], in: directory)
        #expect(!again.stderr.contains("warning"), "haul reads its own session without a warning: \(again.stderr)")
    }

    @Test("a full disk fails that download clearly, keeps what was written, and the others finish")
    func diskFull() async throws {
        let server = try FaultServer.shared()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await runner.haul(
            [
                "get", "-m", "1", "-j", "1", "--resumable-above=0",
                server.url("/file/3000000?key=\(UUID())").absoluteString,
                server.url("/file/100000?key=\(UUID())").absoluteString,
            ], in: directory,
            fileSizeLimitKiB: 1024)
        #expect(run.status == 9)
        #expect(run.stderr.contains("could not write the file"), "\(run.stderr)")
        #expect(run.stderr.contains("File too large"))
        #expect(run.stderr.contains("3000000.part"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("100000")).count == 100_000)
        let kept = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("3000000.part").path)
        #expect((kept[.size] as? Int ?? 0) > 0)
    }
}

/// `haul get` over HTTPS against nginx with a certificate made at test time.
@Suite("haul get over HTTPS")
struct GetCommandHTTPSTests {
    @Test("--ca-certificate makes verification pass; without it the download fails clearly")
    func caCertificate() async throws {
        let nginx = try NginxServer.start(files: ["secure.bin": TestPattern.bytes(count: 123_456)])
        defer { nginx.stop() }
        let runner = GetCommandTests()
        let directory = try runner.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let url = nginx.url("/secure.bin").absoluteString

        let trusted = try await runner.haul(["get", "--ca-certificate", nginx.caFile, url], in: directory)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("secure.bin"))
        #expect(saved.count == 123_456 && TestPattern.matches(saved))

        let untrusted = try await runner.haul(["get", "-o", "other.bin", url], in: directory)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("TLS certificate could not be verified"))
        #expect(untrusted.stderr.contains("--ca-certificate"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("other.bin").path))
    }
}

/// Logins from netrc files.
@Suite("haul get with netrc")
struct GetCommandNetrcTests {
    @Test("~/.netrc gives the login unless --no-netrc; --netrc-path names another file; a shared file is warned about")
    func netrc() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let netrc = home.appendingPathComponent(".netrc").path
        try "machine 127.0.0.1 login fay password n3trc".write(toFile: netrc, atomically: true, encoding: .utf8)
        chmod(netrc, 0o600)
        let url = server.url("/auth/digest?user=fay&pass=n3trc").absoluteString
        let environment = ["HOME": home.path]

        let fromHome = try await HaulProcess.run(["get", url, "-o", "a.txt"], in: directory, environment: environment)
        #expect(fromHome.status == 0, "\(fromHome.stderr)")
        #expect(
            String(decoding: try Data(contentsOf: directory.appendingPathComponent("a.txt")), as: UTF8.self)
                == "welcome")
        #expect(!fromHome.stderr.contains("n3trc") && !fromHome.stderr.contains("warning"))

        let refused = try await HaulProcess.run(
            ["get", url, "-o", "b.txt", "--no-netrc"], in: directory, environment: environment)
        #expect(refused.status == 24)
        #expect(refused.stderr.contains("401") && refused.stderr.contains("--http-user"), "\(refused.stderr)")

        let other = directory.appendingPathComponent("other-netrc").path
        try "default login fay password n3trc".write(toFile: other, atomically: true, encoding: .utf8)
        chmod(other, 0o644)
        let named = try await HaulProcess.run(
            ["get", url, "-o", "c.txt", "--netrc-path", other], in: directory,
            environment: ["HOME": directory.appendingPathComponent("nowhere").path])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.contains("can be read by other users") && named.stderr.contains("chmod 600"))

        let missing = try await HaulProcess.run(
            ["get", url, "--netrc-path", directory.appendingPathComponent("none").path], in: directory)
        #expect(missing.status == 28 && missing.stderr.contains("--netrc-path"), "\(missing.stderr)")
    }
}
