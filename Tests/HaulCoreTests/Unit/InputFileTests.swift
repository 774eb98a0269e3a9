import Foundation
import HaulTestSupport
import Testing

@testable import HaulCore

/// The queue format of `shared/spec/input-file.md`.
@Suite("Queue files")
struct InputFileTests {
    private func read(_ text: String) throws -> InputFile.ReadResult {
        try InputFile.read(Array(text.utf8), name: "q.txt", origin: .queueFile)
    }

    @Test(
        "URIs: the quick check for plain ones agrees with the full parse",
        arguments: [
            ("http://127.0.0.1:8080/a/b.iso?x=1&y=%20#top", true),
            ("HTTPS://Example.COM/", true),
            ("ftp://user:pw@mirror.example/pub/f.tar.gz", true),
            ("ftps://h", true),
            ("http://h/a b", true),
            ("http://[::1]:8080/f", true),
            ("http://h/\u{00E9}t\u{00E9}", true),
            ("http://h/a\rb", false),
            ("http://h/a\u{1B}[2Jb", false),
            ("hftp://h/f", false),
            ("file:///etc/passwd", false),
            ("gopher://h/", false),
            ("http:///nohost", false),
            ("http//h/f", false),
            ("mailto:a@b", false),
            ("http://h/" + String(repeating: "a", count: QueueEntry.longestURI - 9), true),
            ("http://h/" + String(repeating: "a", count: QueueEntry.longestURI - 8), false),
        ])
    func uriCheck(uri: String, usable: Bool) {
        #expect((QueueEntry.uriProblem(uri) == nil) == usable, "\(uri)")
    }

    @Test("a long file read in two halves at once gives what reading it whole gives, problems numbered on")
    func halves() throws {
        // About 1 MB, read in halves from 512 KiB on: entries with option lines, comment and
        // blank lines, CRLF, and bad lines in both halves, so the split falls between entries
        // wherever the middle is.
        var text = ""
        var number = 0
        while text.utf8.count < 1 << 20 {
            text += "http://127.0.0.1:1/f\(number)\tftp://mirror.test/f\(number)\n  out=f\(number).bin\r\n"
            text += number % 3 == 0 ? "# a comment\n\n split=2\n" : " dir=/tmp/q\(number % 7)\n"
            if number % 2_000 == 7 { text += "not a uri at all\n unknown-option=1\n" }
            number += 1
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("q.txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        // It is read in halves (not whole, which would pass this test too).
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(InputFile.Halves(of: descriptor, limit: InputFile.defaultLimit, shortest: 512 << 10) != nil)
        #expect(InputFile.Halves(of: descriptor, limit: InputFile.defaultLimit) == nil, "shorter than 8 MiB")
        let whole = try InputFile.read(Array(text.utf8), name: path, origin: .queueFile)
        let halves = try InputFile.read(contentsOf: path, limit: InputFile.defaultLimit, halvesFrom: 512 << 10)
        #expect(halves.entries.count == number)
        let differing = zip(halves.entries, whole.entries).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differing == nil, "\(String(describing: differing))")
        #expect(halves.problems == whole.problems && halves.problems.count >= 4, "\(halves.problems.prefix(4))")
        #expect(halves.problems.last?.line == whole.problems.last?.line)
    }

    @Test("the spec's example: mirrors, option lines, comments")
    func specExample() throws {
        let result = try read(
            """
            # nightly images
            https://a.example/img.iso\thttps://b.example/mirror/img.iso
              dir=/data/iso
              out=nightly.iso
              checksum=sha-256=6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b
            https://c.example/notes.txt

            """)
        #expect(result.problems.isEmpty)
        #expect(result.entries.count == 2)
        let first = result.entries[0]
        #expect(first.uris == ["https://a.example/img.iso", "https://b.example/mirror/img.iso"])
        #expect(first.options.dir == "/data/iso" && first.options.out == "nightly.iso")
        #expect(first.options.checksum?.algorithm == .sha256)
        #expect(first.line == 2)
        #expect(result.entries[1].options == DownloadOptions())
        #expect(result.summary == "2 entries queued, 0 lines rejected")
    }

    @Test("CRLF, tabs, blank and comment lines inside an option block, spaces around fields")
    func lexicalDetails() throws {
        let result = try read(
            "http://h.test/a \t  http://h.test/b\r\n\tsplit=4\r\n\r\n#comment\r\n  max-tries = 3 \r\nhttp://h.test/c\r\n"
        )
        #expect(result.problems.isEmpty)
        #expect(result.entries.count == 2)
        #expect(result.entries[0].uris.count == 2)
        #expect(result.entries[0].options.split == 4 && result.entries[0].options.maxTries == 3)
    }

    @Test("a byte-order mark before the first line is dropped; one anywhere else is no URI")
    func byteOrderMark() throws {
        let result = try read("\u{FEFF}http://h.test/a\r\n\u{FEFF}http://h.test/b\n")
        #expect(result.entries.map { Array($0.uris) } == [["http://h.test/a"]])
        #expect(result.problems.map(\.line) == [2])
    }

    @Test("bad lines get one FILE:LINE message each and the rest is queued")
    func errorsDoNotAbort() throws {
        let result = try read(
            """
              dir=/orphan
            http://h.test/ok
              split=abc
              frobnicate=1
              bt-request-peer-speed-limit=5
              header=X-A: 1
              header=X-B: 2
              out=first
              out=second
            notaurl\tftp://h.test/mirror
            magnet:?xt=urn:btih:abc
              out=dropped
            http://h.test/last
              checksum=sha-256=abc
            """)
        #expect(result.entries.count == 3)
        #expect(result.entries[0].options.headers == ["X-A: 1", "X-B: 2"])
        #expect(result.entries[0].options.out == "second")
        #expect(result.entries[1].uris == ["ftp://h.test/mirror"])
        #expect(result.entries[2].options.checksum == nil)
        let messages = result.problems.map(\.description)
        #expect(messages.contains { $0.hasPrefix("q.txt:1: option line 'dir=/orphan' comes before any URI line") })
        #expect(messages.contains("q.txt:3: split: 'abc' is not a whole number from 1 to 1024"))
        #expect(messages.contains("q.txt:4: warning: unknown option 'frobnicate'; ignored"))
        #expect(
            messages.contains(
                "q.txt:5: warning: aria2's BitTorrent option 'bt-request-peer-speed-limit' is not one haul applies "
                    + "(libtorrent decides it); ignored"))
        #expect(messages.contains { $0.hasPrefix("q.txt:10: warning: 'notaurl' has no scheme") })
        #expect(
            messages.contains {
                $0.hasPrefix("q.txt:11: 'magnet:?xt=urn:btih:abc' is a magnet link whose hash is not a BitTorrent")
            })
        #expect(messages.contains("q.txt:14: checksum: a sha-256 digest is 64 hex digits"))
        #expect(!messages.contains { $0.hasPrefix("q.txt:12") })
        #expect(result.summary == "3 entries queued, 4 lines rejected")
    }

    @Test("a session aria2c saved reads without an error: options haul does not implement are warned about once each")
    func aria2Session() throws {
        let result = try read(
            """
            https://a.example/f.iso
             continue=true
             dir=/data
             gid=2089b05ecca3d829
             split=5
             max-connection-per-server=1
             file-allocation=prealloc
             always-resume=true
             on-download-complete=/tmp/evil
            """)
        #expect(result.entries.count == 1 && result.rejectedLines == 0)
        #expect(result.entries.first?.gid == "2089b05ecca3d829" && result.entries.first?.options.split == 5)
        let messages = result.problems.map(\.description)
        #expect(result.entries.first?.options.continueExisting == true)
        #expect(
            messages == [
                "q.txt:7: warning: aria2's option 'file-allocation' is not one haul implements (haul writes a file "
                    + "as it arrives and keeps unfinished ones as NAME.part); ignored",
                "q.txt:8: warning: aria2's option 'always-resume' is not one haul implements; ignored",
                "q.txt:9: warning: option 'on-download-complete' runs a command as you: haul takes it from its "
                    + "command line or config file, never from a queue file; ignored",
            ])
    }

    @Test("out= cannot leave the download directory")
    func outStaysInside() throws {
        let result = try read(
            "http://h.test/a\n  out=../../etc/passwd\nhttp://h.test/b\n  out=/etc/cron.d/x\nhttp://h.test/c\n  out=sub/ok.bin\n"
        )
        #expect(result.entries.map(\.options.out) == [nil, nil, "sub/ok.bin"])
        #expect(result.problems.map(\.line) == [2, 4])
        #expect(result.problems[0].description.contains("must be a name inside the download directory"))
    }

    @Test("a wget-style list is one URL per line")
    func wgetList() throws {
        let result = try read("# list\nhttp://h.test/1\nhttp://h.test/2\n\nhttp://h.test/3")
        #expect(result.entries.map(\.uris) == [["http://h.test/1"], ["http://h.test/2"], ["http://h.test/3"]])
    }

    @Test("gzip-compressed files are detected by their magic bytes, not their name")
    func gzipped() throws {
        let text = "http://h.test/a\n  split=2\nhttp://h.test/b\n"
        let result = try InputFile.read(StoredGzip.stored(Array(text.utf8)), name: "queue.txt", origin: .queueFile)
        #expect(result.entries.count == 2 && result.entries[0].options.split == 2)
        #expect(throws: InputFile.FileError.self) {
            try InputFile.read([0x1F, 0x8B, 8, 0, 1, 2], name: "cut.gz", origin: .queueFile)
        }
    }

    @Test("writing and reading back gives the same queue")
    func roundTrip() throws {
        var options = DownloadOptions()
        for (name, value) in [
            ("dir", "/d"), ("out", "a b.iso"), ("split", "8"), ("max-connection-per-server", "4"),
            ("min-split-size", "20M"), ("max-download-limit", "1M"), ("max-tries", "7"),
            ("retry-wait", "3"), ("timeout", "30"), ("connect-timeout", "10"),
            ("lowest-speed-limit", "10K"), ("header", "X-One: 1"), ("header", "X-Two: 2"),
            ("user-agent", "ua/1"), ("referer", "http://r.test/"), ("pause", "true"),
            ("allow-overwrite", "false"), ("auto-file-renaming", "true"), ("conditional-get", "true"),
            ("gid", "0123456789abcdef"), ("all-proxy", "http://proxy.test:3128"),
            ("checksum", "md5=d41d8cd98f00b204e9800998ecf8427e"),
        ] {
            try options.set(name, value)
        }
        let entries = [
            QueueEntry(uris: ["http://a.test/x", "ftp://b.test/x"], options: options, line: 1),
            QueueEntry(uris: ["https://c.test/y"], line: 24),
        ]
        let text = InputFile.render(entries, includingSecrets: false)
        let back = try read(text)
        #expect(back.problems.isEmpty)
        #expect(back.entries.map(\.uris) == entries.map(\.uris))
        #expect(back.entries.map(\.options) == entries.map(\.options))
        #expect(back.entries.map(\.gid) == ["0123456789abcdef", nil])
    }

    @Test("entries of a saved session, each with its own gid, share one copy of their options")
    func sessionGIDs() throws {
        let text = (1...3).map { "http://h/\($0)\n pause=true\n gid=000000000000000\($0)\n" }.joined()
        let entries = try read(text).entries
        #expect(entries.map(\.gid) == ["0000000000000001", "0000000000000002", "0000000000000003"])
        #expect(entries.allSatisfy { $0.options.gid == nil && $0.options.pause == true })
        #expect(entries.allSatisfy { $0.options.sharesValues(with: entries[0].options) })
    }

    @Test("secrets are written only when asked, and then the file is mode 0600")
    func secrets() throws {
        var options = DownloadOptions()
        try options.set("http-user", "me")
        try options.set("http-passwd", "hunter2")
        try options.set("header", "Authorization: Bearer tok")
        try options.set("header", "X-Fine: 1")
        let entry = QueueEntry(uris: ["http://u:pw@h.test/f"], options: options)
        let plain = InputFile.render([entry], includingSecrets: false)
        #expect(!plain.contains("hunter2") && !plain.contains("Bearer") && !plain.contains(":pw@"))
        #expect(plain.contains("http-user=me") && plain.contains("X-Fine: 1"))

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-session-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try InputFile.save([entry], to: path, includingSecrets: true)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("http-passwd=hunter2") && saved.contains("Authorization: Bearer tok"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a saved session keeps no token header or referer password, is 0600, and never writes through a planted link")
    func savedSessionSafety() throws {
        var options = DownloadOptions()
        try options.set("header", "X-Auth-Token: t0ken")
        try options.set("header", "X-API-Key: k3y")
        try options.set("referer", "https://ann:s3cret@ref.test/page")
        let entry = QueueEntry(uris: ["http://h.test/f"], options: options)
        let directory = try ScratchDirectory.make("haul-save")
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let path = directory.appendingPathComponent("session.txt").path
        // The names the old writer used (path.tmp-PID) and a few near them, all links to the victim.
        for pid in [getpid(), getpid() + 1] {
            try FileManager.default.createSymbolicLink(atPath: "\(path).tmp-\(pid)", withDestinationPath: victim.path)
        }
        try InputFile.save([entry], to: path, includingSecrets: false)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!saved.contains("t0ken") && !saved.contains("k3y") && !saved.contains("s3cret"), "\(saved)")
        #expect(saved.contains("referer=https://ann@ref.test/page"), "\(saved)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
    }

    @Test("a missing file is one clear error")
    func missingFile() {
        #expect(throws: InputFile.FileError.self) { try InputFile.read(contentsOf: "/nonexistent/queue.txt") }
    }

    @Test("100,000 lines parse into 100,000 entries")
    func large() throws {
        var text = ""
        text.reserveCapacity(4_000_000)
        for index in 0..<100_000 { text += "http://h.test/file-\(index)\n" }
        let result = try read(text)
        #expect(result.entries.count == 100_000 && result.problems.isEmpty)
    }

    @Test("a .torrent on this machine is a line of the user's own queue file, not of a list loaded by URL")
    func localTorrents() throws {
        let directory = try ScratchDirectory.make("queue-torrents")
        let torrent = directory.appendingPathComponent("album.torrent")
        try Data("d4:infod4:name1:aee".utf8).write(to: torrent)
        let text = "\(torrent.path)\n  select-file=2\n\(directory.path)/missing.torrent\n"
        let own = try read(text)
        #expect(own.entries.map(\.uris) == [[torrent.path]])
        #expect(own.entries.first?.options.selectFile?.description == "2")
        #expect(own.problems.map(\.message).contains { $0.contains("missing.torrent' names no .torrent file here") })
        let remote = try InputFile.read(Array(text.utf8), name: "list", origin: .remoteList)
        #expect(remote.entries.isEmpty)
        #expect(remote.problems.first?.message.contains("may not name a file on this machine") == true)
    }
}
