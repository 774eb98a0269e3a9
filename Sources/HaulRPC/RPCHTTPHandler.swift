import Dispatch
import Foundation
import NIOCore
import NIOHTTP1

// MARK: - RPCHTTPHandler

/// aria2's JSON-RPC over HTTP: `POST /jsonrpc` with the request as the body, and
/// `GET /jsonrpc?method=M&id=I&params=BASE64` with the parameters as base64 of a JSON array.
/// A body over the size limit, a refused origin, another path or method each get their HTTP
/// status and a line saying why. Runs on its channel's event loop; the calls run on `work`.
final class RPCHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let endpoint: RPCEndpoint
    private let policy: OriginPolicy
    private let maxRequestSize: Int
    private let work: DispatchQueue
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    /// Set once a reply was sent before the request ended (too large, refused): the rest is dropped.
    private var answered = false
    /// A whole request not yet answered because the replies before it are still unread.
    private var waitingForRoom: HTTPRequestHead?

    private let refusals: RefusalLog?

    init(
        endpoint: RPCEndpoint, policy: OriginPolicy, maxRequestSize: Int, work: DispatchQueue,
        refusals: RefusalLog? = nil
    ) {
        self.endpoint = endpoint
        self.policy = policy
        self.maxRequestSize = maxRequestSize
        self.work = work
        self.refusals = refusals
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            answered = false
            if let refusal = refusal(of: head) {
                answered = true
                send(refusal.status, Data((refusal.text + "\n").utf8), context: context, closing: true)
            }
        case .body(var part):
            guard !answered else { return }
            guard body.readableBytes + part.readableBytes <= maxRequestSize else {
                answered = true
                send(.payloadTooLarge, tooLargeText, context: context, closing: true)
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard !answered, let head else { return }
            // A client that does not read its replies gets no more of them made: the next is
            // worked out once the last has left (pipelined requests were read ahead already).
            guard context.channel.isWritable else {
                waitingForRoom = head
                return
            }
            answer(head, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let head = waitingForRoom {
            waitingForRoom = nil
            answer(head, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// A connection silent for the idle timeout (`IdleStateHandler`) is closed.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        context.close(promise: nil)
    }

    private var tooLargeText: Data {
        Data("request larger than --rpc-max-request-size (\(maxRequestSize) bytes)\n".utf8)
    }

    /// Why `head` is refused before its body is read.
    private func refusal(of head: HTTPRequestHead) -> (status: HTTPResponseStatus, text: String)? {
        if let why = policy.refusal(of: head) {
            refusals?.refused("refused a request: \(why)")
            return (.forbidden, why)
        }
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > maxRequestSize {
            return (.payloadTooLarge, String(decoding: tooLargeText, as: UTF8.self))
        }
        guard head.uri.split(separator: "?", maxSplits: 1).first == "/jsonrpc" else {
            return (.notFound, "not found: the JSON-RPC endpoint is /jsonrpc")
        }
        return nil
    }

    /// Answers a whole request. Its text is read on `work`, never on the event loop, which
    /// serves every other client meanwhile.
    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let text: [UInt8]
        switch head.method {
        case .POST: text = Array(body.readableBytesView)
        case .GET: text = []
        case .OPTIONS:
            send(policy.servesAnyOrigin ? .noContent : .forbidden, Data(), context: context, closing: false)
            return
        default:
            send(.methodNotAllowed, Data("use POST or GET on /jsonrpc\n".utf8), context: context, closing: false)
            return
        }
        // A closed connection asks nothing more of `work`: the server's stop waits for it once.
        guard context.channel.isActive else { return }
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        let endpoint = endpoint
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        work.async {
            let request = head.method == .GET ? RPCHTTPHandler.request(fromQuery: head.uri) : JSONValue.parse(text)
            let (reply, hold, status) = endpoint.answer(to: request, from: peer, overGET: head.method == .GET)
            // A wrong secret's reply waits out its hold on the loop, not on `work`: other clients
            // are answered meanwhile, and this connection reads no next request until it is sent.
            // An error closes the connection after it, as aria2's does.
            loop.scheduleTask(in: TimeAmount(hold)) {
                let (handler, context) = bound.value
                handler.send(
                    HTTPResponseStatus(statusCode: status), reply, context: context,
                    closing: !head.isKeepAlive || status != 200, json: true)
            }
        }
    }

    /// The request a GET's query describes (`method`, `id`, `params` as base64 of a JSON array),
    /// or nil when it cannot be read.
    static func request(fromQuery uri: String) -> JSONValue? {
        guard let query = URLComponents(string: uri)?.queryItems else { return nil }
        var object: [String: JSONValue] = ["jsonrpc": "2.0"]
        for item in query {
            guard let value = item.value else { continue }
            switch item.name {
            case "method": object["method"] = .string(value)
            case "id": object["id"] = .string(value)
            case "params":
                // Base64 in a query loses its `+` to a space.
                let text = value.replacingOccurrences(of: " ", with: "+")
                guard let data = Data(base64Encoded: text), let params = JSONValue.parse(data) else { return nil }
                object["params"] = params
            default: continue
            }
        }
        return .object(object)
    }

    private func send(
        _ status: HTTPResponseStatus, _ body: Data, context: ChannelHandlerContext, closing: Bool, json: Bool = false
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: json ? "application/json-rpc" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-cache")
        if policy.servesAnyOrigin {
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
            headers.add(name: "Access-Control-Allow-Methods", value: "POST, GET, OPTIONS")
            headers.add(name: "Access-Control-Allow-Headers", value: "Content-Type")
        }
        if closing { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if closing {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

extension OriginPolicy {
    /// Why a request with `head` is refused, or nil when it is served (its Host, Origin and
    /// Sec-Fetch-Site headers). A request with two of one of them is refused: which one a proxy
    /// or a browser went by cannot be known.
    func refusal(of head: HTTPRequestHead) -> String? {
        for name in ["Host", "Origin", "Sec-Fetch-Site"] where head.headers[name].count > 1 {
            return "more than one \(name) header"
        }
        return refusal(
            host: head.headers.first(name: "Host"), origin: head.headers.first(name: "Origin"),
            fetchSite: head.headers.first(name: "Sec-Fetch-Site"))
    }
}
