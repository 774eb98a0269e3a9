import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

// MARK: - RPCServer

/// The daemon's JSON-RPC listener, on SwiftNIO's HTTP/1 and WebSocket handlers: `/jsonrpc`
/// over HTTP POST and GET, and upgraded to a WebSocket that also hears notifications.
/// Listens on 127.0.0.1 unless told otherwise, and then only with a secret.
package final class RPCServer: Sendable {
    package struct Configuration: Sendable {
        package var port = 6800
        /// `--rpc-listen-all`: every address, not only loopback.
        package var listenAll = false
        package var allowOriginAll = false
        /// The largest request body or WebSocket message, in bytes (aria2's default: 2 MiB).
        package var maxRequestSize = 2 << 20
        /// `--rpc-secure`: HTTPS and WSS with this PEM certificate chain and private key.
        package var tls: (certificate: String, privateKey: String)?
        /// The most connections served at once; one more closes the oldest, so that idle
        /// connections can neither take every descriptor the daemon has nor keep a client out.
        package var maxConnections = 128
        /// A connection that sends nothing this long is closed (an HTTP one), or asked for a sign
        /// of life by a ping and closed after a second silence (a WebSocket, which may only
        /// listen for notifications).
        package var idleTimeout: TimeAmount = .seconds(30)
        /// Where a refused request (its Origin, Host or headers) is said, once a kind.
        package var refusals: RefusalLog?

        package init() {}
    }

    /// Why the server will not start.
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    package let port: Int
    package let hub: NotificationHub
    /// The Unix socket listened on, removed at `stop`.
    private let socketPath: String?
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The connections open now, closed by `stop`.
    private let open: OpenConnections
    /// Where calls are answered, off the event loop; `stop` waits for what is on it.
    let work: DispatchQueue

    /// Binds and starts serving `endpoint`. Throws when listening on every address without a
    /// secret, or when the port cannot be bound (saying which).
    package static func start(
        _ configuration: Configuration, endpoint: RPCEndpoint, hub: NotificationHub = NotificationHub()
    ) throws -> RPCServer {
        if configuration.listenAll, !endpoint.secretGuard.requiresSecret {
            throw StartError(
                description: "--rpc-listen-all needs --rpc-secret: anyone who can reach the port could "
                    + "otherwise download to this machine")
        }
        let host = configuration.listenAll ? "0.0.0.0" : "127.0.0.1"
        let tls = try configuration.tls.map(RPCServer.tlsContext)
        return try start(
            configuration, endpoint: endpoint, hub: hub, naming: "\(host):\(configuration.port)", tls: tls
        ) {
            try $0.bind(host: host, port: configuration.port).wait()
        }
    }

    /// Serves `endpoint` on the Unix socket at `path` (mode 0600: this user's processes only),
    /// replacing a socket a killed run left there. The caller holds the state directory's lock,
    /// so no other haul is listening on it.
    package static func start(
        socketAt path: String, endpoint: RPCEndpoint, hub: NotificationHub = NotificationHub()
    ) throws -> RPCServer {
        unlink(path)
        let previous = umask(0o177)
        defer { umask(previous) }
        return try start(Configuration(), endpoint: endpoint, hub: hub, naming: path, socketPath: path) {
            try $0.bind(unixDomainSocketPath: path).wait()
        }
    }

    /// The socket a haul holding the state directory `stateDirectory` listens on.
    package static func socketPath(in stateDirectory: String) -> String {
        (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + "rpc.sock"
    }

    private static func start(
        _ configuration: Configuration, endpoint: RPCEndpoint, hub: NotificationHub, naming place: String,
        socketPath: String? = nil, tls: NIOSSLContext? = nil, bind: (ServerBootstrap) throws -> any Channel
    ) throws -> RPCServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let work = DispatchQueue(label: "haul.rpc.calls")
        let policy = OriginPolicy(
            allowOriginAll: configuration.allowOriginAll, loopbackOnly: !configuration.listenAll,
            secretRequired: endpoint.secretGuard.requiresSecret)
        let maxSize = configuration.maxRequestSize
        let refusals = configuration.refusals
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxSize,
            shouldUpgrade: { channel, head in
                let why = policy.refusal(of: head)
                if let why { refusals?.refused("refused a WebSocket: \(why)") }
                let served = head.uri == "/jsonrpc" && why == nil
                return channel.eventLoop.makeSucceededFuture(served ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let aggregator = NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256, maxAccumulatedFrameSize: maxSize)
                    try channel.pipeline.syncOperations.addHandlers(
                        aggregator, RPCWebSocketHandler(endpoint: endpoint, hub: hub, work: work))
                }
            })
        let open = OpenConnections(limit: configuration.maxConnections)
        let idleTimeout = configuration.idleTimeout
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                open.admit(channel)?.close(promise: nil)
                channel.closeFuture.whenComplete { _ in open.leave(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    // Replies a client does not read stop its requests being read (no reply piles up).
                    try channel.pipeline.syncOperations.addHandlers(
                        BackPressureHandler(), IdleStateHandler(readTimeout: idleTimeout))
                    let upgrade: NIOHTTPServerUpgradeSendableConfiguration = (
                        upgraders: [upgrader],
                        completionHandler: { context in
                            context.pipeline.removeHandler(name: RPCServer.httpHandlerName, promise: nil)
                        }
                    )
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withServerUpgrade: upgrade)
                    try channel.pipeline.syncOperations.addHandler(
                        RPCHTTPHandler(
                            endpoint: endpoint, policy: policy, maxRequestSize: maxSize, work: work,
                            refusals: refusals),
                        name: RPCServer.httpHandlerName)
                }
            }
        do {
            return RPCServer(
                group: group, channel: try bind(bootstrap), open: open, work: work, hub: hub, socketPath: socketPath)
        } catch {
            try? group.syncShutdownGracefully()
            guard (error as? IOError)?.errnoCode == EADDRINUSE else {
                throw StartError(description: "cannot listen on \(place): \(error)")
            }
            throw StartError(
                description: "cannot listen on \(place): the port is in use (another haul daemon, or aria2c?); "
                    + "choose another with --rpc-listen-port")
        }
    }

    /// The TLS context of `--rpc-certificate` and `--rpc-private-key`, or why it cannot be made.
    static func tlsContext(_ files: (certificate: String, privateKey: String)) throws -> NIOSSLContext {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificate).map {
                NIOSSLCertificateSource.certificate($0)
            }
            guard !chain.isEmpty else {
                throw StartError(description: "--rpc-certificate \(files.certificate) holds no PEM certificate")
            }
            let key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
            return try NIOSSLContext(
                configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        } catch let error as StartError {
            throw error
        } catch {
            throw StartError(
                description: "--rpc-secure: cannot use --rpc-certificate \(files.certificate) and --rpc-private-key "
                    + "\(files.privateKey): \(error)")
        }
    }

    private static let httpHandlerName = "haul.rpc.http"

    /// The connections open now, oldest first, up to a limit. Any thread.
    private final class OpenConnections: Sendable {
        private let limit: Int
        private let channels = Mutex<(order: [ObjectIdentifier], byID: [ObjectIdentifier: any Channel])>(([], [:]))

        init(limit: Int) {
            self.limit = limit
        }

        /// Counts `channel` in, and returns the oldest connection to close when `limit` were
        /// open already: a flood of idle connections cannot keep a new client out (it holds
        /// the newest places, and is closed as more arrive), where refusing the newcomer would.
        func admit(_ channel: any Channel) -> (any Channel)? {
            channels.withLock { open in
                let id = ObjectIdentifier(channel)
                open.order.append(id)
                open.byID[id] = channel
                guard open.order.count > limit else { return nil }
                let oldest = open.order.removeFirst()
                return open.byID.removeValue(forKey: oldest)
            }
        }

        /// Every connection open now.
        var all: [any Channel] {
            channels.withLock { Array($0.byID.values) }
        }

        func leave(_ channel: any Channel) {
            channels.withLock { open in
                let id = ObjectIdentifier(channel)
                guard open.byID.removeValue(forKey: id) != nil else { return }
                open.order.removeAll { $0 == id }
            }
        }
    }

    private init(
        group: MultiThreadedEventLoopGroup, channel: any Channel, open: OpenConnections, work: DispatchQueue,
        hub: NotificationHub, socketPath: String?
    ) {
        self.socketPath = socketPath
        self.group = group
        self.channel = channel
        self.open = open
        self.work = work
        self.hub = hub
        port = channel.localAddress?.port ?? 0
    }

    /// Stops listening and closes every connection, in an order that leaves nothing to the event
    /// loop once it is gone: no new connection, no new request, then the calls under way answered
    /// (their replies go to closed connections, on the loop that is still there), then the loop.
    /// Not on `work` or the event loop: it waits for both.
    package func stop() {
        try? channel.close().wait()
        for connection in open.all { try? connection.close().wait() }
        work.sync {}
        try? group.syncShutdownGracefully()
        if let socketPath { unlink(socketPath) }
    }
}
