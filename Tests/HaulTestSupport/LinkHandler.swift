import NIOCore
import NIOPosix

// MARK: - LinkDirection

/// How one direction of an emulated link treats the bytes it carries.
struct LinkDirection {
    let bytesPerSecond: Int?
    let delay: TimeAmount
    let stallAfter: Int?
    let dropAfter: Int?
    /// Told of every piece carried.
    var carried: @Sendable (ByteBuffer) -> Void = { _ in }

    init(shape: LinkEmulator.Shape, stallAfter: Int?, dropAfter: Int?) {
        bytesPerSecond = shape.bytesPerSecond
        delay = .milliseconds(Int64(shape.oneWayDelayMilliseconds))
        self.stallAfter = stallAfter
        self.dropAfter = dropAfter
    }

    var isPlain: Bool { bytesPerSecond == nil && delay == .zero && stallAfter == nil && dropAfter == nil }
}

// MARK: - LinkHandler

/// One side of an emulated connection: what it reads from its channel goes to its partner's
/// channel, shaped by `direction` (each chunk leaves when the link's delay and rate allow).
/// Reading stops while more than `highWater` bytes are in flight or the partner cannot take
/// more, so a link holds a bounded amount, as a real one does: a capped one about what it
/// carries in a round trip and a quarter of a second (its bandwidth-delay product and a
/// router's queue), an uncapped one 8 MiB.
final class LinkHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let direction: LinkDirection
    private let highWater: Int
    private var partner: LinkHandler?
    private var context: ChannelHandlerContext?
    /// Bytes read and not yet written by the partner.
    private var inFlight = 0
    /// Bytes carried so far (for stall and drop).
    private var carried = 0
    /// When the rate allows the next byte to leave.
    private var nextFree = NIODeadline.uptimeNanoseconds(0)
    private var wantsRead = false
    private var stalled = false

    private init(direction: LinkDirection) {
        self.direction = direction
        if let rate = direction.bytesPerSecond {
            let seconds = 2 * Double(direction.delay.nanoseconds) / 1e9 + 0.25
            highWater = max(64 << 10, Int(Double(rate) * seconds))
        } else {
            highWater = 8 << 20
        }
    }

    /// The handlers of a connection's two sides: the client's (whose bytes go toServer) and the
    /// server's (whose bytes go toClient).
    static func pair(toServer: LinkDirection, toClient: LinkDirection) -> (LinkHandler, LinkHandler) {
        let fromClient = LinkHandler(direction: toServer)
        let fromServer = LinkHandler(direction: toClient)
        fromClient.partner = fromServer
        fromServer.partner = fromClient
        return (fromClient, fromServer)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { context.read() }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !stalled, let partner else { return }
        if let stallAfter = direction.stallAfter, carried + buffer.readableBytes >= stallAfter {
            buffer = buffer.getSlice(at: buffer.readerIndex, length: max(0, stallAfter - carried)) ?? buffer
            stalled = true
        }
        var dropNow = false
        if let dropAfter = direction.dropAfter, carried + buffer.readableBytes >= dropAfter {
            buffer = buffer.getSlice(at: buffer.readerIndex, length: max(0, dropAfter - carried)) ?? buffer
            dropNow = true
        }
        carried += buffer.readableBytes
        if direction.isPlain {
            direction.carried(buffer)
            partner.send(buffer, flush: false)
            return
        }
        let count = buffer.readableBytes
        inFlight += count
        var leaves = NIODeadline.now() + direction.delay
        if let rate = direction.bytesPerSecond {
            leaves = max(leaves, nextFree)
            nextFree = leaves + .nanoseconds(Int64(count) * 1_000_000_000 / Int64(max(rate, 1)))
        }
        context.eventLoop.scheduleTask(deadline: leaves) { [self] in
            direction.carried(buffer)
            partner.send(buffer, flush: true)
            inFlight -= count
            if dropNow {
                partner.context?.close(promise: nil)
                self.context?.close(promise: nil)
            } else if wantsRead, inFlight < highWater {
                wantsRead = false
                self.context?.read()
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
        guard !stalled else { return }
        if inFlight < highWater, partner?.context?.channel.isWritable ?? false {
            context.read()
        } else {
            wantsRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // The partner may read again once this side can take its bytes.
        if context.channel.isWritable, let partner, partner.wantsRead, partner.inFlight < partner.highWater {
            partner.wantsRead = false
            partner.context?.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Bytes still on their way arrive first, as on a real link.
        let partnerContext = partner?.context
        let lastLeaves = max(NIODeadline.now() + direction.delay, nextFree)
        context.eventLoop.scheduleTask(deadline: lastLeaves) { partnerContext?.close(promise: nil) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Writes `buffer` to this side's channel.
    private func send(_ buffer: ByteBuffer, flush: Bool) {
        guard let context else { return }
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        } else {
            context.write(wrapOutboundOut(buffer), promise: nil)
        }
    }
}
