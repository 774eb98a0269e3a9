import Foundation
import HaulCore
import HaulTestSupport
import Testing

@testable import HaulRPC

// MARK: - RPCServerLimitsTests

/// The daemon's listener as an attacker meets it: connections beyond the cap, idle ones, a
/// flood of wrong secrets from the owner's own address, requests that only a hand-written
/// client sends.
@Suite("RPC server limits")
struct RPCServerLimitsTests {
    /// This process's resident memory, in bytes (`VmRSS`).
    private static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// A queue served on a free loopback port with `secret`, at most `maxConnections` at once,
    /// idle ones closed after `idleMilliseconds`.
    private static func serve(
        secret: String? = "right", maxConnections: Int = 128, idleMilliseconds: Int64 = 30_000
    ) throws -> (RPCServer, URL, DownloadQueue) {
        let directory = try ScratchDirectory.make("rpc-limits")
        var configuration = DownloadQueue.Configuration()
        configuration.directory = directory.path
        let queue = DownloadQueue(configuration: configuration) { _ in }
        let settings = Aria2Methods.Settings(allowedDirectory: AllowedDirectory(directory.path), version: "t")
        let endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: secret))
        var server = RPCServer.Configuration()
        server.port = 0
        server.maxConnections = maxConnections
        server.idleTimeout = .milliseconds(idleMilliseconds)
        return (try RPCServer.start(server, endpoint: endpoint), directory, queue)
    }

    private static func post(_ body: String, port: Int, headers: [String] = []) -> String {
        ([
            "POST /jsonrpc HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: application/json",
            "Content-Length: \(body.utf8.count)",
        ] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    private static let version = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:right"]}"#

    @Test("a flood of idle connections: the oldest past the cap are closed, a new client is served at once")
    func idleConnections() throws {
        let (server, directory, _) = try Self.serve(maxConnections: 8, idleMilliseconds: 1000)
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(at: directory) }
        let idle = try (0..<20).map { _ in try RawConnection(port: server.port) }
        // Each newcomer past 8 closed the oldest.
        #expect(idle.prefix(12).allSatisfy { $0.isClosed(within: 0.5) })
        #expect(idle.suffix(8).allSatisfy { !$0.isClosed(within: 0.05) })
        let client = try RawConnection(port: server.port)
        client.send(Self.post(Self.version, port: server.port))
        #expect(client.receive(timeout: 0.5, until: "version")?.contains("\"version\":\"t\"") == true)
        // The silent ones are closed after the idle time.
        #expect(idle[19].isClosed(within: 2))
    }

    @Test("a flood of wrong secrets from the owner's address: the guesser waits, the owner is answered at once")
    func guesserDoesNotLockOutOwner() throws {
        let (server, directory, _) = try Self.serve()
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = Self.version.replacingOccurrences(of: "token:right", with: "token:guess")
        // A wrong secret's reply closes its connection, as aria2's does: each guess comes anew.
        let guessers = try (0..<8).map { _ in try RawConnection(port: server.port) }
        for guesser in guessers { guesser.send(Self.post(wrong, port: server.port)) }
        Thread.sleep(forTimeInterval: 0.3)
        let owner = try RawConnection(port: server.port)
        let start = Date()
        owner.send(Self.post(Self.version, port: server.port))
        #expect(owner.receive(timeout: 3, until: "version")?.contains("\"version\":\"t\"") == true)
        #expect(Date().timeIntervalSince(start) < 0.5)
        // A guesser past its free tries waits for its wrong answer.
        let late = Date()
        let guesser = try RawConnection(port: server.port)
        guesser.send(Self.post(wrong, port: server.port))
        #expect(guesser.receive(timeout: 10, until: "Unauthorized")?.contains("400 Bad Request") == true)
        #expect(Date().timeIntervalSince(late) >= 0.1)
    }

    @Test("pipelined calls whose replies are never read stop being read: the daemon's memory does not grow")
    func unreadReplies() throws {
        let (server, directory, queue) = try Self.serve()
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(at: directory) }
        var entry = QueueEntry(uris: ["http://127.0.0.1:9/a-file-with-a-longish-name.bin"])
        entry.options.pause = true
        queue.add(Array(repeating: entry, count: 1000))
        let call = #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellWaiting","params":["token:right",0,1000]}"#
        let reader = try RawConnection(port: server.port)
        // One reply is some 400 KB; 400 of them unread would be 160 MB held by the daemon.
        let before = Self.residentBytes()
        var flags = fcntl(reader.descriptor, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(reader.descriptor, F_SETFL, flags)
        for _ in 0..<400 { reader.send(Self.post(call, port: server.port)) }
        Thread.sleep(forTimeInterval: 6)
        let grown = Self.residentBytes() - before
        #expect(grown < 24 << 20, "grew \(grown >> 20) MiB")
        // Once read, the replies come.
        #expect(reader.receive(timeout: 5, until: "\"result\"")?.contains("\"result\"") == true)
    }

    @Test("two Host or Origin headers are refused; a GET that would change the queue needs POST or a secret")
    func headerTricks() throws {
        let (server, directory, _) = try Self.serve(secret: nil)
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(at: directory) }
        let doubled = try RawConnection(port: server.port)
        doubled.send(Self.post(Self.version, port: server.port, headers: ["Host: evil.example"]))
        #expect(doubled.receive(timeout: 2, until: "header")?.contains("403") == true)
        let origins = try RawConnection(port: server.port)
        origins.send(
            Self.post(
                Self.version, port: server.port,
                headers: ["Origin: http://127.0.0.1:\(server.port)", "Origin: https://evil.example"]))
        #expect(origins.receive(timeout: 2, until: "header")?.contains("403") == true)
        let shutdown = try RawConnection(port: server.port)
        let params = Data("[]".utf8).base64EncodedString()
        shutdown.send("GET /jsonrpc?method=aria2.shutdown&id=1&params=\(params) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(shutdown.receive(timeout: 2, until: "POST")?.contains("send it by POST") == true)
        let read = try RawConnection(port: server.port)
        read.send("GET /jsonrpc?method=aria2.getVersion&id=1&params=\(params) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(read.receive(timeout: 2, until: "version")?.contains("\"version\":\"t\"") == true)
    }

    @Test("500 brackets deep, unauthorized: refused at once, and an authorized call is not held behind it")
    func nestedJSON() throws {
        let (server, directory, _) = try Self.serve()
        defer { server.stop() }
        defer { try? FileManager.default.removeItem(at: directory) }
        let leaves = Array(repeating: "1", count: 2000).joined(separator: ",")
        let nested = String(repeating: "[", count: 500) + leaves + String(repeating: "]", count: 500)
        let attackers = try (0..<4).map { _ in try RawConnection(port: server.port) }
        let start = Date()
        for attacker in attackers { attacker.send(Self.post(nested, port: server.port)) }
        let owner = try RawConnection(port: server.port)
        owner.send(Self.post(Self.version, port: server.port))
        #expect(owner.receive(timeout: 3, until: "version")?.contains("\"version\":\"t\"") == true)
        #expect(attackers[0].receive(timeout: 3, until: "-32700")?.contains("-32700") == true)
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test("stopping while calls are under way: they are answered or their connections closed, and nothing crashes")
    func stopDrainsCalls() throws {
        let (server, directory, queue) = try Self.serve()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A short call that takes the calls queue a while: a page of thousands of downloads.
        var paused = DownloadOptions()
        paused.pause = true
        queue.add((0..<400).map { QueueEntry(uris: ["http://127.0.0.1:9/\($0)"], options: paused) })
        let page = #"{"jsonrpc":"2.0","id":1,"method":"aria2.tellWaiting","params":["token:right",0,100000]}"#
        let clients = try (0..<24).map { _ in try RawConnection(port: server.port) }
        for client in clients { client.send(Self.post(page, port: server.port)) }
        // One answered: the others' calls were read before it, and wait on the calls queue or run.
        let deadline = Date().addingTimeInterval(30)
        var answered = false
        while !answered, Date() < deadline {
            answered = clients.contains { $0.receive(timeout: 0.05, until: "\"id\":1")?.contains("\"id\":1") == true }
        }
        #expect(answered)
        server.stop()
        // Whatever was still on the calls queue has run: a reply it scheduled on the gone loop would
        // have trapped by now.
        server.work.sync {}
        #expect(clients.allSatisfy { $0.ends(within: 10) })
    }
}
