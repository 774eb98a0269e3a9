import Foundation
import HaulTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `haul daemon` over its own transports, as an attacker and as a restart would meet it.
@Suite("haul daemon")
struct DaemonTests {
    @Test("refused: a wrong or missing secret, a rebinding Host, an oversized request, bad JSON, a dir outside")
    func refusals() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(
            in: directory, ["--rpc-secret", "hunter2", "--rpc-max-request-size", "4K"])
        defer { daemon.stop() }
        let stat = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getGlobalStat\",\"params\":PARAMS}"
        let right = try await daemon.post(stat.replacingOccurrences(of: "PARAMS", with: "[\"token:hunter2\"]"))
        #expect(right.status == 200 && right.body.contains("\"numActive\":\"0\""), "\(right)")
        for params in ["[\"token:hunter3\"]", "[]"] {
            let wrong = try await daemon.post(stat.replacingOccurrences(of: "PARAMS", with: params))
            // As aria2 answers it: AriaNg reads `error` only from a reply that is not 2xx.
            #expect(wrong.status == 400 && wrong.body.contains("\"message\":\"Unauthorized\""), "\(wrong)")
        }
        // With a secret, the secret decides (as aria2's does): a page of any origin is served, AriaNg
        // opened from a file among them; a page whose own name resolves to 127.0.0.1 is not.
        let foreign = try await daemon.post(
            stat.replacingOccurrences(of: "PARAMS", with: "[\"token:hunter2\"]"), headers: ["Origin": "null"])
        #expect(foreign.status == 200, "\(foreign)")
        for _ in 0..<2 {
            let rebound = try await daemon.post(
                stat.replacingOccurrences(of: "PARAMS", with: "[\"token:hunter2\"]"),
                headers: ["Host": "evil.example:\(daemon.port)"])
            #expect(rebound.status == 403 && rebound.body.contains("evil.example"), "\(rebound)")
        }
        // Each refusal is one log line saying how to allow it, however often it comes.
        let log = daemon.stderr
        #expect(
            log.components(separatedBy: "Host 'evil.example:\(daemon.port)' is not this daemon's loopback address")
                .count == 2, "\(log)")
        #expect(
            log.components(separatedBy: "a wrong or missing secret (give the client the one set by --rpc-secret)")
                .count == 2, "\(log)")
        let oversized = try await daemon.post(String(repeating: " ", count: 5000) + "{}")
        #expect(oversized.status == 413, "\(oversized)")
        let malformed = try await daemon.post("{\"method\": ")
        #expect(malformed.status == 500 && malformed.body.contains("-32700"), "\(malformed)")
        let unknown = try await daemon.post("{\"id\":1,\"method\":\"aria2.nothing\",\"params\":[\"token:hunter2\"]}")
        #expect(unknown.status == 400 && unknown.body.contains("No such method"), "\(unknown)")
        let outside = try await daemon.post(
            "{\"id\":2,\"method\":\"aria2.addUri\",\"params\":[\"token:hunter2\",[\"http://127.0.0.1:9/x\"],"
                + "{\"dir\":\"/etc\"}]}")
        #expect(outside.body.contains("outside the directory"), "\(outside)")
        // The daemon is still up, and the secret never reached its log.
        #expect(daemon.process.isRunning)
        #expect(!daemon.stderr.contains("hunter2"))
    }

    @Test("a GET with base64 params is served as aria2 serves it")
    func getWithBase64() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let params = Data("[]".utf8).base64EncodedString()
        var request = URLRequest(url: URL(fileURLWithPath: "/"))
        request.url = URL(
            string: "http://127.0.0.1:\(daemon.port)/jsonrpc?method=aria2.getVersion&id=7&params=\(params)")
        let reply = try await DaemonProcess.send(request)
        #expect(
            reply.status == 200 && reply.body.contains("\"id\":\"7\"") && reply.body.contains("version"), "\(reply)")
    }

    @Test("listening on every address without a secret is refused at start, however it is spelled")
    func listenAllNeedsSecret() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // aria2's spellings too: --enable-rpc, and a flag given as =true.
        for arguments in [["daemon", "--rpc-listen-all"], ["--enable-rpc", "--rpc-listen-all=true"]] {
            let run = try await HaulProcess.run(arguments + ["--rpc-listen-port", "0"], in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains("--rpc-listen-all needs --rpc-secret"), "\(run.stderr)")
        }
    }

    @Test("killed with SIGKILL mid-download and started again, the daemon continues the download")
    func survivesItsRestart() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let uri = server.url("/file/10000000?key=\(key)&trickle=65536").absoluteString
        let first = try await DaemonProcess.start(in: directory, ["--checkpoint-interval", "0.2"])
        let gid = try #require(
            try await first.call("aria2.addUri", "[[\"\(uri)\"],{\"out\":\"big.bin\"}]") as? String)
        // Some bytes, and a checkpoint of them.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let status = try await first.call("aria2.tellStatus", "[\"\(gid)\",[\"completedLength\"]]")
            if let done = (status as? [String: String])?["completedLength"].flatMap(Int.init), done > 1_000_000 {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(500))
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()

        let second = try await DaemonProcess.start(in: directory)
        defer { second.stop() }
        var state = ""
        let end = Date().addingTimeInterval(30)
        while Date() < end, state != "complete", state != "error" {
            let status = try await second.call("aria2.tellStatus", "[\"\(gid)\",[\"status\"]]")
            state = (status as? [String: String])?["status"] ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state == "complete", "\(second.stderr)")
        let file = try Data(contentsOf: directory.appendingPathComponent("out/big.bin"))
        #expect(file.count == 10_000_000 && TestPattern.matches(file))
        let requests = server.fileRequests.requests(for: key)
        // Continued, never started over: after the first request, each asks a range (the split
        // haul chose may have used several connections).
        #expect(
            requests.count >= 2 && requests.first?.range == nil
                && requests.dropFirst().allSatisfy { $0.range?.hasPrefix("bytes=") == true }, "\(requests)")
    }

    @Test("haul get on a terminal shows the status line of the downloads it handed to a running daemon")
    func handOffProgress() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        // 600 KB at 64 KiB every 100 ms: about a second, so the line shows before the end.
        let url = server.url("/file/600000?key=\(UUID().uuidString)&pace=65536").absoluteString
        let session = try TmuxSession.haul(["get", url, "-d", "mine"], in: directory, width: 80, height: 24)
        let shown = await session.wait { $0.contains("handed 1 download") && $0.contains("%") }
        #expect(shown.held, "\(shown.text)")
        let ended = await session.wait { $0.contains("EXIT=") }
        #expect(ended.text.contains("saved by the run") && ended.text.contains("EXIT=0"), "\(ended.text)")
    }

    @Test("a second daemon on a port in use says so, names --rpc-listen-port, and exits 1")
    func portInUse() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let other = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(other) }
        let second = try await HaulProcess.run(["daemon", "--rpc-listen-port", String(daemon.port)], in: other)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(
            second.stderr.contains(
                "port is in use (another haul daemon, or aria2c?); choose another with "
                    + "--rpc-listen-port") && !second.stderr.contains("errno"), "\(second.stderr)")
    }

    @Test("haul get and haul URL hand their downloads to a running daemon (with -v, not); haul alone attaches")
    func handOff() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let socket = directory.path + "-state/haul/rpc.sock"
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let got = try await HaulProcess.run(
            ["get", server.url("/bytes/4000").absoluteString, server.url("/status/404").absoluteString, "-d", "mine"],
            in: directory)
        #expect(got.status == 3, "\(got.stderr)")
        #expect(got.stderr.contains("handed 2 downloads to the haul running on"), "\(got.stderr)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("mine/4000"))
        #expect(saved.count == 4000 && TestPattern.matches(saved))
        #expect(daemon.stderr.contains("saved \(directory.path)/mine/4000"))

        // With -v the requests are shown, so they are made here, not handed off.
        let shown = try await HaulProcess.run(
            ["get", "-v", server.url("/bytes/3000").absoluteString, "-d", "shown"], in: directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stderr.contains("handed") && shown.stderr.contains("< HTTP/1.1 200"), "\(shown.stderr)")
        #expect(!daemon.stderr.contains("shown/3000"))

        // Without a terminal, haul URL downloads as haul get does: handed off too.
        let plain = try await HaulProcess.run([server.url("/bytes/5000").absoluteString], in: directory)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("5000").path))

        let session = try TmuxSession.haul([], in: directory)
        let attached = await session.wait { $0.contains("attached to") && $0.contains("4000") && $0.contains("5000") }
        #expect(attached.held, "\(attached.text)")
        try session.send("q")
        _ = await session.wait { $0.contains("EXIT=0") }
        #expect(daemon.process.isRunning)
    }

    @Test("--rpc-secure serves HTTPS: --connect verifies its certificate, and refuses it unverified")
    func secure() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        try NginxServer.makeCertificates(in: directory)
        let path = directory.path
        let daemon = try await DaemonProcess.start(
            in: directory,
            ["--rpc-secure", "--rpc-certificate", "\(path)/server.pem", "--rpc-private-key", "\(path)/server.key"])
        defer { daemon.stop() }
        #expect(daemon.stderr.contains("over HTTPS and WSS"))
        let url = "https://127.0.0.1:\(daemon.port)/jsonrpc"
        // Another state directory: this UI attaches over HTTPS, not the local socket.
        let trusted = try TmuxSession.haul(
            ["--connect", url, "--ca-certificate", "\(path)/ca.pem", "--state-dir", "\(path)/other"], in: directory)
        let attached = await trusted.wait { $0.contains("attached to \(url)") }
        #expect(attached.held, "\(attached.text)")
        let untrusted = try TmuxSession.haul(["--connect", url], in: directory)
        let refused = await untrusted.wait { $0.contains("EXIT=1") }
        #expect(
            refused.held && refused.text.contains("cannot attach") && refused.text.contains("certificate"),
            "\(refused.text)")

        let missing = try await HaulProcess.run(["daemon", "--rpc-secure", "--rpc-listen-port", "0"], in: directory)
        #expect(
            missing.status == 28 && missing.stderr.contains("--rpc-secure needs --rpc-certificate"), "\(missing.stderr)"
        )
    }
}
