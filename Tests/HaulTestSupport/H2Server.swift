import Foundation

// MARK: - H2Server

/// An HTTP/2 server over TLS (the h2 package, from `.build/venv`, which `make test` makes) on
/// 127.0.0.1 at an ephemeral port: `GET /f/NAME` answers `size` bytes of `TestPattern` from
/// offset `H2Server.offset(of: NAME)`. It can reset the first stream of chosen paths half way
/// and say GOAWAY after some requests on each connection, and it counts what it saw (`stats`).
/// Stopped on deinit.
public final class H2Server: Sendable {
    public let port: Int
    /// The PEM file of the CA that signed the server's certificate.
    public let caFile: String
    private let statsPath: String
    private let directory: URL
    private let process: Process

    /// What the server saw so far.
    public struct Stats: Decodable, Sendable {
        /// Requests by path.
        public var requests: [String: Int]
        /// The most streams open at once on one connection.
        public var peakStreams: Int
        /// TCP connections accepted.
        public var connections: Int
        /// Streams it reset half way.
        public var resets: Int
        /// GOAWAYs it sent.
        public var goaways: Int
        /// Streams it refused (`refuseAll`).
        public var refused: Int
    }

    /// `delayMilliseconds`: each body starts that long after its request. `reset`: paths whose
    /// first request is reset after a quarter of the body. `goAwayAfter`: each connection says
    /// GOAWAY after that many requests. `refuseAll`: every stream is refused (REFUSED_STREAM).
    public init(
        size: Int = 16384, delayMilliseconds: Int = 0, reset: [String] = [], goAwayAfter: Int? = nil,
        refuseAll: Bool = false
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-h2-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try NginxServer.makeCertificates(in: directory)
        caFile = directory.appendingPathComponent("ca.pem").path
        statsPath = directory.appendingPathComponent("stats.json").path
        var arguments = [
            directory.appendingPathComponent("server.pem").path, directory.appendingPathComponent("server.key").path,
            statsPath, "--size", String(size), "--delay", String(delayMilliseconds),
        ]
        for path in reset { arguments += ["--reset", path] }
        if let goAwayAfter { arguments += ["--goaway-after", String(goAwayAfter)] }
        if refuseAll { arguments.append("--refuse") }
        (process, port) = try TestVenv.startServer("h2_server.py", arguments, what: "HTTP/2 (h2)")
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Where `NAME`'s body starts in `TestPattern`: the sum of its bytes.
    public static func offset(of name: String) -> Int {
        name.utf8.reduce(0) { $0 + Int($1) }
    }

    /// What the server saw so far (nothing before its first request).
    public var stats: Stats {
        get throws {
            guard let data = FileManager.default.contents(atPath: statsPath) else {
                return Stats(requests: [:], peakStreams: 0, connections: 0, resets: 0, goaways: 0, refused: 0)
            }
            return try JSONDecoder().decode(Stats.self, from: data)
        }
    }
}
