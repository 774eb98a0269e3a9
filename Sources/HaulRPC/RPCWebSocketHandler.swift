import Dispatch
import NIOCore
import NIOWebSocket

// MARK: - RPCWebSocketHandler

/// aria2's JSON-RPC over a WebSocket on `/jsonrpc`: each text message is a request, answered
/// on the same socket; the socket also hears the notifications (`NotificationHub`). Messages
/// arrive whole (`NIOWebSocketFrameAggregator` before it caps their size). Runs on its
/// channel's event loop; the calls run on `work`.
final class RPCWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: RPCEndpoint
    private let hub: NotificationHub
    private let work: DispatchQueue
    private var closing = false

    init(endpoint: RPCEndpoint, hub: NotificationHub, work: DispatchQueue) {
        self.endpoint = endpoint
        self.hub = hub
        self.work = work
    }

    func handlerAdded(context: ChannelHandlerContext) {
        hub.join(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.leave(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary: call(frame.unmaskedData, context: context)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose: close(context: context, code: .normalClosure)
        default: break
        }
    }

    private func call(_ data: ByteBuffer, context: ChannelHandlerContext) {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        let endpoint = endpoint
        let channel = context.channel
        let bytes = Array(data.readableBytesView)
        work.async {
            let reply = endpoint.reply(to: bytes, from: peer)
            let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(bytes: reply))
            channel.writeAndFlush(frame, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A message over the size limit, or a broken frame: say so and close.
        let tooLarge =
            error is NIOWebSocketFrameAggregator.Error || (error as? NIOWebSocketError) == .invalidFrameLength
        close(context: context, code: tooLarge ? .messageTooLarge : .protocolError)
    }

    private func close(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }
}
