import NIOCore
import NIOPosix
import Synchronization

// MARK: - LinkEmulator

/// A TCP pass-through on 127.0.0.1 that makes loopback behave like a real link: placed in front
/// of nginx or the fault server, it caps each accepted connection's bandwidth, delays every
/// byte by a one-way latency in each direction (so a round trip costs `2 × oneWayDelay`), and
/// can stall or drop a connection after a number of bytes from the server. It counts the TCP
/// connections it accepted. With no shape set it forwards at loopback speed.
///
/// **Threading:** safe from any thread; each connection's two sides share one event loop.
public final class LinkEmulator: Sendable {
    /// What the link does to each connection.
    public struct Shape: Sendable {
        /// Bytes a second each connection carries in each direction; nil for no cap.
        public var bytesPerSecond: Int?
        /// Milliseconds each byte takes to cross in one direction.
        public var oneWayDelayMilliseconds: Int
        /// The server's bytes after which a connection (the `affecting`-th and later ones,
        /// counted from 1) stops forwarding and stays open.
        public var stallAfter: Int?
        /// The server's bytes after which such a connection is closed.
        public var dropAfter: Int?
        /// Which connections a stall or drop affects: from this one on (1 is the first).
        public var affecting: ClosedRange<Int>

        public init(
            bytesPerSecond: Int? = nil, oneWayDelayMilliseconds: Int = 0, stallAfter: Int? = nil,
            dropAfter: Int? = nil, affecting: ClosedRange<Int> = 1...Int.max
        ) {
            self.bytesPerSecond = bytesPerSecond
            self.oneWayDelayMilliseconds = oneWayDelayMilliseconds
            self.stallAfter = stallAfter
            self.dropAfter = dropAfter
            self.affecting = affecting
        }
    }

    public let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The TCP connections it accepted, and how many are open.
    public let connections = ConnectionCounter()
    /// When each connection was accepted, in order.
    private let acceptedAt = AcceptLog()
    /// The HTTP/1.1 requests clients sent through it (their request lines: every call of an
    /// RPC client over HTTP, and each WebSocket upgrade).
    public let requests = RequestLineCounter()

    /// Starts an emulator forwarding to `127.0.0.1:targetPort`, shaping as `shape` says.
    public init(targetPort: Int, shape: Shape = Shape()) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let counter = connections
        let instants = acceptedAt
        let requests = requests
        let target = try SocketAddress(ipAddress: "127.0.0.1", port: targetPort)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { inbound in
                counter.opened()
                instants.record()
                let number = counter.accepted
                inbound.closeFuture.whenComplete { _ in counter.closed() }
                return ClientBootstrap(group: inbound.eventLoop)
                    .channelOption(.autoRead, value: false)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(to: target)
                    .flatMap { outbound in
                        let affected = shape.affecting.contains(number)
                        var toServer = LinkDirection(shape: shape, stallAfter: nil, dropAfter: nil)
                        let tail = RequestLineCounter.Tail()
                        toServer.carried = { requests.count(in: $0, after: tail) }
                        var toClient = LinkDirection(
                            shape: shape, stallAfter: affected ? shape.stallAfter : nil,
                            dropAfter: affected ? shape.dropAfter : nil)
                        toClient.carried = { instants.carried($0.readableBytes, on: number) }
                        let (fromClient, fromServer) = LinkHandler.pair(toServer: toServer, toClient: toClient)
                        // Each side starts reading once it is active (autoRead is off, to shape).
                        return inbound.pipeline.addHandler(fromClient).and(outbound.pipeline.addHandler(fromServer))
                            .map { _ in }
                    }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        guard let port = channel.localAddress?.port else { throw LinkEmulatorError.noPort }
        self.port = port
        self.group = group
    }

    /// When each connection was accepted, in order.
    public var acceptTimes: [ContinuousClock.Instant] { acceptedAt.instants }

    /// The server's bytes each connection carried to the client, in the order accepted.
    public var bytesToClient: [Int] { acceptedAt.bytes }

    /// A URL on the emulator for `url`'s path and query, keeping its scheme (the TLS passes
    /// through: the certificate is still the server's, for 127.0.0.1).
    public func url(_ path: String, scheme: String = "https") -> String {
        "\(scheme)://127.0.0.1:\(port)\(path)"
    }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

enum LinkEmulatorError: Error {
    case noPort
}

/// When a link's connections were accepted, and what each carried to the client.
final class AcceptLog: Sendable {
    private let log = Mutex<(times: [ContinuousClock.Instant], bytes: [Int])>(([], []))

    var instants: [ContinuousClock.Instant] { log.withLock { $0.times } }
    var bytes: [Int] { log.withLock { $0.bytes } }

    func record() {
        log.withLock { log in
            log.times.append(.now)
            log.bytes.append(0)
        }
    }

    /// Connection `number` (from 1) carried `count` more bytes to the client.
    func carried(_ count: Int, on number: Int) {
        log.withLock { log in
            if log.bytes.indices.contains(number - 1) { log.bytes[number - 1] += count }
        }
    }
}

/// Counts the request lines (`… HTTP/1.1` and CRLF) in what clients send, a line split across
/// two pieces of a connection included.
public final class RequestLineCounter: Sendable {
    private static let marker = Array(" HTTP/1.1\r\n".utf8)
    private let total = Mutex(0)

    /// The last bytes of a connection's previous piece, less than a marker.
    final class Tail: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    /// How many request lines were sent so far.
    public var count: Int { total.withLock { $0 } }

    func count(in buffer: ByteBuffer, after tail: Tail) {
        let found = tail.bytes.withLock { kept in
            let text = kept + Array(buffer.readableBytesView)
            let marker = RequestLineCounter.marker
            var found = 0
            var index = 0
            while index + marker.count <= text.count {
                if text[index..<index + marker.count].elementsEqual(marker) {
                    found += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            kept = Array(text.suffix(min(marker.count - 1, max(0, text.count - index))))
            return found
        }
        total.withLock { $0 += found }
    }
}
