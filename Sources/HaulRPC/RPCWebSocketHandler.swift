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
    /// A ping went out after a silence, and nothing has come back since.
    private var pinged = false

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
        pinged = false
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

    /// Messages read but not yet answered, oldest first; the first is being answered. One at a
    /// time, as an HTTP connection's requests are: a wrong secret's hold delays the next
    /// message too, and the socket is not read while `pendingLimit` wait.
    private var pending: [ByteBuffer] = []
    /// The first pending message waits for the replies before it to be read.
    private var waitingForRoom = false
    private static let pendingLimit = 16

    private func call(_ data: ByteBuffer, context: ChannelHandlerContext) {
        pending.append(data)
        if pending.count >= RPCWebSocketHandler.pendingLimit {
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
        if pending.count == 1 { answerFirst(context: context) }
    }

    /// Answers the oldest pending message on `work`, then (its hold waited out on the loop)
    /// sends the reply and goes on to the next.
    private func answerFirst(context: ChannelHandlerContext) {
        // A closed connection asks nothing more of `work`: the server's stop waits for it once.
        guard let data = pending.first, context.channel.isActive else { return }
        // A client that does not read its replies gets no more of them made meanwhile.
        guard context.channel.isWritable else {
            waitingForRoom = true
            return
        }
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        let endpoint = endpoint
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let bytes = Array(data.readableBytesView)
        work.async {
            let (reply, hold, _) = endpoint.answer(to: JSONValue.parse(bytes), from: peer)
            loop.scheduleTask(in: TimeAmount(hold)) {
                let (handler, context) = bound.value
                let data = context.channel.allocator.buffer(bytes: reply)
                let frame = WebSocketFrame(fin: true, opcode: .text, data: data)
                context.writeAndFlush(handler.wrapOutboundOut(frame), promise: nil)
                handler.pending.removeFirst()
                if handler.pending.count == RPCWebSocketHandler.pendingLimit - 1 {
                    context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
                }
                handler.answerFirst(context: context)
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, waitingForRoom {
            waitingForRoom = false
            answerFirst(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// A silent socket is pinged; one still silent at the next timeout is closed (a client that
    /// only listens answers pings, as browsers and WebSocket libraries do by themselves).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        guard !pinged else { return close(context: context, code: .goingAway) }
        pinged = true
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
        context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
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
