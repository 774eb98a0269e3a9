import Foundation

// MARK: - TorrentSwarm

/// BitTorrent on loopback for tests: torrents made by libtorrent's Python binding (Debian's
/// python3-libtorrent, under /usr/bin/python3), and aria2c as a seeder or a leecher, with DHT,
/// local peer discovery and peer exchange off: peers find each other only as a test says.
public enum TorrentSwarm {
    /// A torrent's format.
    public enum Kind: String, Sendable {
        case v1, v2, hybrid
    }

    /// Makes a .torrent of `path` (a file or a folder) at `out`; returns its info hash (v1's, or
    /// v2's for a v2-only torrent).
    public static func makeTorrent(
        of path: URL, at out: URL, kind: Kind = .v1, pieceLength: Int = 0, trackers: [String] = [],
        webSeeds: [String] = []
    ) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Scripts/make_torrent.py").path
        var arguments = [script, path.path, out.path, "--\(kind.rawValue)", "--piece-length", String(pieceLength)]
        for tracker in trackers { arguments += ["--tracker", tracker] }
        for seed in webSeeds { arguments += ["--web-seed", seed] }
        let made = try ToolOutput.run("/usr/bin/python3", arguments)
        guard made.status == 0 else {
            throw SpawnedProcess.SpawnError(
                description: "make_torrent.py failed (\(made.status)); python3-libtorrent is installed by make test")
        }
        return made.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// aria2c seeding `torrent` from `directory` (which holds its files), checked first (`-V`)
    /// unless `checking` is false, for ever (`--seed-ratio=0.0`), on a free port; returns once it
    /// accepts connections.
    public static func aria2Seeder(
        of torrent: URL, in directory: URL, checking: Bool = true, extra: [String] = []
    ) throws -> Aria2Peer {
        try Aria2Peer(
            torrent: torrent, directory: directory, arguments: (checking ? ["-V"] : []) + ["--seed-ratio=0.0"] + extra)
    }

    /// aria2c leeching `torrent` into `directory` (peers from its tracker), ending when it has
    /// it (`--seed-time=0`).
    public static func aria2Leecher(of torrent: URL, into directory: URL) throws -> Aria2Peer {
        try Aria2Peer(torrent: torrent, directory: directory, arguments: ["--seed-time=0"], waitsForListening: false)
    }
}

/// An aria2c of a `TorrentSwarm`: its listening port, stopped by `stop()` or awaited by `wait()`.
public final class Aria2Peer: Sendable {
    public let port: Int
    private let process: SpawnedProcess

    init(torrent: URL, directory: URL, arguments: [String], waitsForListening: Bool = true) throws {
        port = try LoopbackPort.free()
        process = try SpawnedProcess(
            "/usr/bin/aria2c",
            [
                "--no-conf", "--quiet=true", "--enable-dht=false", "--enable-dht6=false", "--bt-enable-lpd=false",
                "--enable-peer-exchange=false", "--listen-port=\(port)", "--dir=\(directory.path)",
                "--file-allocation=none", "--check-certificate=false",
            ] + arguments + [torrent.path])
        guard waitsForListening else { return }
        let deadline = Date().addingTimeInterval(60)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline else {
                process.stop(with: SIGKILL)
                throw SpawnedProcess.SpawnError(description: "aria2c did not listen on \(port) within 60 s")
            }
            usleep(20_000)
        }
    }

    /// `127.0.0.1:port`, as a peer is given.
    public var address: String { "127.0.0.1:\(port)" }

    public func stop() {
        process.stop(with: SIGKILL)
    }

    /// Waits for aria2c to end by itself; its exit status.
    @discardableResult
    public func wait() -> Int32 {
        process.wait()
    }
}

// MARK: - Trackers and libtorrent seeders

extension TorrentSwarm {
    /// Debian's opentracker on `port` of loopback, tracking only `hashes` (its whitelist; v1
    /// hashes, or v2's first 40 hex digits, as trackers key a v2 torrent).
    public static func tracker(for hashes: [String], in directory: URL, port: Int) throws -> Tracker {
        try Tracker(hashes: hashes, directory: directory, port: port)
    }

    /// libtorrent (python3-libtorrent) seeding `torrent` from `directory` on a free port (v2 and
    /// hybrid torrents, which aria2c cannot read); returns once it has checked every piece.
    public static func libtorrentSeeder(of torrent: URL, in directory: URL) throws -> LibtorrentSeeder {
        try LibtorrentSeeder(torrent: torrent, directory: directory)
    }
}

/// opentracker on loopback; `announce` is its URL for a torrent.
public final class Tracker: Sendable {
    public let port: Int
    private let process: SpawnedProcess

    init(hashes: [String], directory: URL, port: Int) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try (hashes.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("whitelist"), atomically: true, encoding: .utf8)
        self.port = port
        process = try SpawnedProcess(
            "/usr/bin/opentracker",
            ["-i", "127.0.0.1", "-p", String(port), "-P", String(port), "-d", directory.path, "-w", "whitelist"])
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline else {
                process.stop(with: SIGKILL)
                throw SpawnedProcess.SpawnError(description: "opentracker did not listen on \(port)")
            }
            usleep(20_000)
        }
    }

    /// The URL a torrent announces to.
    public var announce: String { "http://127.0.0.1:\(port)/announce" }

    public func stop() {
        process.stop(with: SIGKILL)
    }
}

/// A libtorrent seeder, running until `stop()`.
public final class LibtorrentSeeder: Sendable {
    public let port: Int
    private let process: Process
    private let input: Pipe

    init(torrent: URL, directory: URL) throws {
        port = try LoopbackPort.free()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Scripts/seed_torrent.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, torrent.path, directory.path, String(port)]
        input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let said = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard said == "seeding" else {
            process.terminate()
            process.waitUntilExit()
            // What Python or libtorrent said on the way out (a traceback, a crash's line).
            let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw SpawnedProcess.SpawnError(
                description:
                    "the libtorrent seeder said '\(said)' (files not whole?), exit \(process.terminationStatus) "
                    + "(\(process.terminationReason == .uncaughtSignal ? "signal" : "status")): \(why.suffix(2000))")
        }
    }

    /// `127.0.0.1:port`, as a peer is given.
    public var address: String { "127.0.0.1:\(port)" }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

extension FileHandle {
    /// The bytes up to the next newline (without it), or to the end.
    func availableLine() -> Data {
        var line = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        return line
    }
}
