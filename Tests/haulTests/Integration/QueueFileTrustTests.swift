import Foundation
import HaulTestSupport
import Testing

/// Queue files someone else wrote, as a user meets them: a list loaded by URL cannot write
/// outside the directory the user chose or replace a file, and its diagnostics cannot act on
/// the terminal.
@Suite("Queue files from others")
struct QueueFileTrustTests {
    @Test("a list loaded by URL names plain files in the directory the user chose: no dir, no dotfile, no folder")
    func remoteListStaysInside() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let victim = home.appendingPathComponent(".bashrc")
        try Data("precious".utf8).write(to: victim)
        let list = [
            server.url("/bytes/3000").absoluteString, "  dir=\(home.path)", "  out=.bashrc", "  allow-overwrite=true",
            server.url("/bytes/2000").absoluteString, "  dir=sub/deeper", "  out=two.bin",
            server.url("/bytes/1000").absoluteString, "  dir=../home", "  out=.ssh/authorized_keys",
        ]
        let url = server.queueFileURL(lines: list, key: UUID().uuidString).absoluteString
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]

        let run = try await HaulProcess.run(["get", "-i", url, "-d", "dl"], in: directory, environment: environment)
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        #expect(run.stderr.contains(":2: dir=\(home.path) is not taken from a list loaded by URL"), "\(run.stderr)")
        #expect(run.stderr.contains(":3: warning: out '.bashrc' is saved as 'bashrc'"), "\(run.stderr)")
        #expect(run.stderr.contains(":4: allow-overwrite=true is not taken from a list loaded by URL"), "\(run.stderr)")
        #expect(run.stderr.contains(":6: dir=sub/deeper is not taken"), "\(run.stderr)")
        #expect(run.stderr.contains(":9: dir=../home is not taken"), "\(run.stderr)")
        let downloads = directory.appendingPathComponent("dl")
        #expect(try Data(contentsOf: downloads.appendingPathComponent("bashrc")).count == 3000)
        #expect(try Data(contentsOf: downloads.appendingPathComponent("two.bin")).count == 2000)
        #expect(try Data(contentsOf: downloads.appendingPathComponent("ssh_authorized_keys")).count == 1000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path).count == 3)
    }

    @Test("a list the user names by path may name any directory; allow-overwrite comes from the command line only")
    func localListNamesDirectories() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: elsewhere.appendingPathComponent("a.bin"))
        let list = [
            server.url("/bytes/3000").absoluteString, "  dir=\(elsewhere.path)", "  out=a.bin",
            "  allow-overwrite=true",
        ]
        try list.joined(separator: "\n").write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)

        let run = try await HaulProcess.run(["get", "-i", "list.txt"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: elsewhere.appendingPathComponent("a.bin")) == Data("old".utf8))
        #expect(try Data(contentsOf: elsewhere.appendingPathComponent("a.1.bin")).count == 3000)

        let again = try await HaulProcess.run(["get", "-i", "list.txt", "--allow-overwrite"], in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: elsewhere.appendingPathComponent("a.bin")).count == 3000)
    }

    @Test("escape sequences a queue file holds are shown as text in its diagnostics, never sent to the terminal")
    func diagnosticsShowNoEscapes() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let list = [
            "http://\u{1B}]0;pwned\u{07}/x", "gopher://h/\u{1B}[2J", "http://127.0.0.1:1/f",
            "  \u{1B}]52;c;ZXZpbA==\u{07}=1", "  out=\u{1B}[31mred", "  split=\u{1B}[2J",
        ]
        try list.joined(separator: "\n").write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(["get", "-i", "list.txt", "-m", "1"], in: directory)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(run.stderr.debugDescription)")
        #expect(run.stderr.contains("list.txt:4:") && run.stderr.contains("^[]52;c;"), "\(run.stderr)")
        #expect(run.stderr.contains("list.txt:6:") && run.stderr.contains("^[[2J"), "\(run.stderr)")
    }

    @Test(
        "a header with no name, from the command line or a queue file, is refused by name and line; haul does not crash"
    )
    func namelessHeader() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        for header in [":", "::", ": value", "Bad Name: x"] {
            let run = try await HaulProcess.run(["get", "--header", header, "http://127.0.0.1:1/f"], in: directory)
            #expect(run.status == 28, "\(header): \(run.stderr)")
            #expect(run.stderr.contains("--header") && run.stderr.contains("not a header"), "\(run.stderr)")
        }
        let list = ["http://127.0.0.1:1/f", "  header=:", "  header=::", "  user-agent=a\rX-Evil: 1"]
        try list.joined(separator: "\n").write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let run = try await HaulProcess.run(["get", "-i", "list.txt", "-m", "1"], in: directory)
        #expect(run.status == 6, "\(run.stderr)")
        #expect(
            run.stderr.contains("list.txt:2: header:") && run.stderr.contains("list.txt:3: header:"), "\(run.stderr)")
        #expect(run.stderr.contains("list.txt:4: user-agent:"), "\(run.stderr)")
    }

    @Test("a list loaded by URL cannot continue, and so replace, a file of yours: continue=true is the owner's")
    func remoteListCannotContinue() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let downloads = directory.appendingPathComponent("dl")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let notes = downloads.appendingPathComponent("notes.txt")
        try Data("my own notes".utf8).write(to: notes)
        let list = [server.url("/bytes/3000").absoluteString, "  out=notes.txt", "  continue=true"]
        let url = server.queueFileURL(lines: list, key: UUID().uuidString).absoluteString
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]

        let run = try await HaulProcess.run(["get", "-i", url, "-d", "dl"], in: directory, environment: environment)
        #expect(run.stderr.contains(":3: continue=true is not taken from a list loaded by URL"), "\(run.stderr)")
        #expect(try Data(contentsOf: notes) == Data("my own notes".utf8))
        #expect(try Data(contentsOf: downloads.appendingPathComponent("notes.1.txt")).count == 3000)
    }

    @Test("a list loaded by URL gets no netrc login or command-line credential, and names no proxy; yours do")
    func remoteListGetsNoLogins() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let netrc = directory.appendingPathComponent("netrc")
        try "machine 127.0.0.1 login ann password netrc-secret\n".write(to: netrc, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: netrc.path)
        let headers = server.url("/headers").absoluteString
        // Answers 401 to a request without Authorization: only a login gets its body.
        let login = headers + "?challenge=basic"
        let list = [
            headers, "  out=theirs.txt", "  all-proxy=http://127.0.0.1:\(server.port)", "  check-certificate=false",
            login, "  out=login.txt",
        ]
        let url = server.queueFileURL(lines: list, key: UUID().uuidString).absoluteString
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
        let credentials = ["--netrc-path", "netrc", "--header", "X-Api-Key: owner-key"]

        let run = try await HaulProcess.run(
            ["get", "-i", url, "-d", "dl"] + credentials, in: directory, environment: environment)
        #expect(run.stderr.contains(":3: all-proxy=http://127.0.0.1:\(server.port) is not taken"), "\(run.stderr)")
        #expect(run.stderr.contains(":4: check-certificate=false is not taken"), "\(run.stderr)")
        let theirs = try String(contentsOf: directory.appendingPathComponent("dl/theirs.txt"), encoding: .utf8)
        #expect(!theirs.lowercased().contains("authorization") && !theirs.contains("owner-key"), "\(theirs)")
        #expect(!theirs.lowercased().contains("proxy"), "\(theirs)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("dl/login.txt").path))
        #expect(run.stderr.contains("401"), "\(run.stderr)")

        let own = try await HaulProcess.run(["get", login, "-o", "mine.txt"] + credentials, in: directory)
        #expect(own.status == 0, "\(own.stderr)")
        let mine = try String(contentsOf: directory.appendingPathComponent("mine.txt"), encoding: .utf8)
        #expect(mine.contains("Authorization: Basic") && mine.contains("X-Api-Key: owner-key"), "\(mine)")
    }

    @Test("a server cannot name a file NAME.aria2 or NAME.part, which haul would read as state: its last dot becomes _")
    func sideFilesAreReserved() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        for planted in ["notes.txt.aria2", "notes.txt.part"] {
            var components = URLComponents(url: server.url("/disposition"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "value", value: "attachment; filename=\"\(planted)\"")]
            let url = try #require(components?.url).absoluteString
            let run = try await HaulProcess.run(["get", url], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let changed = planted.replacingOccurrences(of: "txt.", with: "txt_")
            #expect(
                FileManager.default.fileExists(atPath: directory.appendingPathComponent(changed).path), "\(planted)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(planted).path))
        }
    }
}
