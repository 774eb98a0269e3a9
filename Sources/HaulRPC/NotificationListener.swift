import Foundation
import HaulNet
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

// MARK: - NotificationListener

/// Listens on a daemon's WebSocket (`ws://HOST:PORT/jsonrpc`, `wss://` over TLS, or a local
/// haul's Unix socket) for aria2's notifications, so a view changes the moment a download
/// does rather than at the next poll. It only listens: calls go over `RPCClient`.
/// `onNotification` runs on the listener's event loop with the method's name and the gid.
package final class NotificationListener: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Connects to the daemon `client` calls, with its TLS settings; throws when the socket
    /// cannot be opened or upgraded (the caller then polls alone).
    package static func connect(
        to client: RPCClient, onNotification: @escaping @Sendable (String, String) -> Void,
        onClose: @escaping @Sendable () -> Void
    ) async throws -> NotificationListener {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let tls = try client.socketPath == nil && client.url.scheme == "https" ? tlsContext(client.tls) : nil
            let host = client.url.host ?? "localhost"
            let port = Origin(client.url)?.effectivePort ?? (tls == nil ? 80 : 443)
            let upgraded = group.next().makePromise(of: Void.self)
            let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        let name = host.first?.isNumber == true || host.contains(":") ? nil : host
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: name))
                    }
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: 1 << 20,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandlers(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                                        maxAccumulatedFrameSize: 1 << 20),
                                    Listening(onNotification: onNotification, onClose: onClose))
                                upgraded.succeed()
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.removeHandler(name: UpgradeRequest.name, promise: nil)
                            }
                        ))
                    try channel.pipeline.syncOperations.addHandler(
                        UpgradeRequest(host: host, port: port, path: client.url.path, failed: upgraded),
                        name: UpgradeRequest.name)
                }
            }
            let channel =
                if let path = client.socketPath {
                    try await bootstrap.connect(unixDomainSocketPath: path).get()
                } else {
                    try await bootstrap.connect(host: host, port: port).get()
                }
            channel.closeFuture.whenComplete { _ in upgraded.fail(ChannelError.ioOnClosedChannel) }
            try await upgraded.futureResult.get()
            return NotificationListener(group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.group = group
        self.channel = channel
    }

    /// Closes the socket.
    package func close() {
        channel.close(promise: nil)
        group.shutdownGracefully { _ in }
    }

    private static func tlsContext(_ options: TLSOptions) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile = options.caFile { configuration.trustRoots = .file(caFile) }
        if !options.verifyPeer { configuration.certificateVerification = .none }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Sends the upgrade request once connected; a refused upgrade fails `failed`.
    private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        static let name = "haul.rpc.upgrade-request"

        let host: String
        let port: Int
        let path: String
        let failed: EventLoopPromise<Void>

        init(host: String, port: Int, path: String, failed: EventLoopPromise<Void>) {
            self.host = host
            self.port = port
            self.path = path.isEmpty ? "/jsonrpc" : path
            self.failed = failed
        }

        func channelActive(context: ChannelHandlerContext) {
            var headers = NIOHTTP1.HTTPHeaders()
            headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            headers.add(name: "Content-Length", value: "0")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // A plain HTTP answer: the daemon did not upgrade.
            if case .head = unwrapInboundIn(data) {
                failed.fail(ChannelError.operationUnsupported)
                context.close(promise: nil)
            }
        }
    }

    /// Reads notifications off the upgraded socket.
    private final class Listening: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        let onNotification: @Sendable (String, String) -> Void
        let onClose: @Sendable () -> Void

        init(onNotification: @escaping @Sendable (String, String) -> Void, onClose: @escaping @Sendable () -> Void) {
            self.onNotification = onNotification
            self.onClose = onClose
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                let message = JSONValue.parse(Array(frame.unmaskedData.readableBytesView))?.object
                if let method = message?["method"]?.string,
                    let gid = message?["params"]?.array?.first?.object?["gid"]?.string
                {
                    onNotification(method, gid)
                }
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            case .connectionClose: context.close(promise: nil)
            default: break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            onClose()
            context.fireChannelInactive()
        }
    }
}
