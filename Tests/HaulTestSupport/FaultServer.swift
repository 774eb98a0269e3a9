import Foundation
import HaulNet
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

// MARK: - FaultServer

/// An HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that does what real servers do wrong,
/// for tests. Routes (N is a byte count):
///
/// - `/bytes/N`: N pattern bytes (`TestPattern`) with Content-Length; honours `Range: bytes=a-b`
///   (and `a-`) with a 206 and Content-Range.
/// - `/chunked/N`: the same, chunked. `/gzip/N`: gzip-encoded.
/// - `/huge/N`: N bytes generated as the client reads them (never held in memory).
/// - `/redirect/CODE?to=LOCATION`, `/chain/N` (N hops, then `/bytes/100`), `/loop`.
/// - `/status/CODE`: that status with a short body.
/// - `/drop/N?sent=M`: announces N bytes, sends M (default N/2), closes.
/// - `/stall`: announces 1000 bytes, sends 10, then nothing.
/// - `/upload`: echoes the request body. `/headers`: the request's headers as the body (with
///   `challenge=basic`, after a 401 Basic challenge to a request without Authorization).
/// - `/peer`: the client's IP address as the body.
/// - `/auth/basic?user=U&pass=P`, `/auth/digest?…`: see `AuthChallenge` (with
///   `X-Received-Length`, the request body's length).
/// - A request with an absolute URI (`GET http://any.host/PATH`, as to an HTTP proxy) is served
///   by PATH and its URI logged (`fileRequests.proxied`). For a host named `authproxy…` the proxy
///   first wants `Proxy-Authorization` for `proxy:pw` (a 407 with a Basic challenge).
/// - `/multipart/N?chunk=K`: a `multipart/x-mixed-replace` stream (boundary `frame`) of N parts
///   (`FaultServer.multipartPart`), sent K bytes every 5 ms (default: at once); with
///   `nodelimiter=1`, a body without any delimiter.
/// - `/cookies?NAME=VALUE&…`: a Set-Cookie (Path=/) for each pair.
/// - `/disposition?value=V`: a Content-Disposition header with value V.
/// - `/empty`: 204 without a body.
/// - `/bigheaders/N?line=L`: N header lines of L bytes (default 1000), then a 2-byte body.
/// - `/cacheable/N?key=K&…`: a response with the cache headers the query asks for, counted per
///   key K in `fileRequests` (with the validator each request carried); see `CacheRoute`.
/// - `/file/N?key=K&…`: N pattern bytes with ETag `"v1"` and a Last-Modified, honouring Range and
///   If-Range, counting requests per key K (`fileRequests`). Faults: `drop=M` (the first request
///   closes after M body bytes), `stall=M` (the first request sends M body bytes, then nothing),
///   `trickle=K` (the first request sends K body bytes every 100 ms; with `stallafter=M`, only M
///   bytes, then nothing), `crawl=K` (the second
///   does), `pace=K` (every other request does, until `fileRequests.liftPace(for:)`),
///   `etag=changing` (the ETag is `"vN"` on the Nth request), `chunked` (a paced whole file is
///   sent chunked, with no Content-Length),
///   A request with `If-None-Match` the ETag, or `If-Modified-Since` at or after the Last-Modified
///   (1 Sep 2026 10:00 GMT), gets a 304. `ranges=ignore` (always 200, no Accept-Ranges) or `ranges=416`,
///   `ifrange=ignore` (serve the range even when
///   If-Range no longer matches), `fail=CODE&times=T&retryAfter=S` (the first T requests answer CODE),
///   `disposition=V` (a Content-Disposition header), `validators=none` (no ETag, no
///   Last-Modified), `unasked206=whole|half` (a request without Range gets a 206 of the whole
///   file, or of its first half), `corrupt=O` (byte O is wrong in
///   every body that holds it: a mirror with bad data), `corruptEvery=N` (every byte at a multiple
///   of N is wrong), `duplicate=URL` (a Link header naming URL
///   as a mirror, RFC 6249), `digest=V` (a Digest header of V), `ranged=CODE` (a request with
///   Range answers CODE, with `retryAfter=S`; `ranged=cut`: its 206 headers, then the connection
///   closes: a server that takes one connection a client).
public final class FaultServer: Sendable {
    public let port: Int
    /// Connections accepted, open now, and open at the most at one time.
    public let connections: ConnectionCounter
    /// What `/file/…` requests each key has seen.
    public let fileRequests: FileRequestLog
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Starts a server; stop it with `shutdown()`.
    public static func start() throws -> FaultServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let counter = ConnectionCounter()
        let log = FileRequestLog()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withOutboundHeaderValidation: false)
                    try channel.pipeline.syncOperations.addHandler(FaultHandler(counter: counter, log: log))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        return FaultServer(
            group: group, channel: channel, port: channel.localAddress?.port ?? 0, connections: counter,
            fileRequests: log)
    }

    /// One server for the whole test process, started on first use.
    public static func shared() throws -> FaultServer {
        try sharedServer.get()
    }

    private static let sharedServer = Result { try FaultServer.start() }

    private init(
        group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int, connections: ConnectionCounter,
        fileRequests: FileRequestLog
    ) {
        self.connections = connections
        self.fileRequests = fileRequests
        self.group = group
        self.channel = channel
        self.port = port
    }

    /// Part `index` of `/multipart/N`: its Content-Type names it, and its data differs in length.
    public static func multipartPart(_ index: Int) -> (type: String, data: [UInt8]) {
        ("text/plain; part=\(index)", Array("part \(index): ".utf8) + TestPattern.bytes(count: 1000 * index))
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            preconditionFailure("not a URL path: \(path)")
        }
        return url
    }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

// MARK: - FaultHandler

/// Answers one connection's requests by route.
final class FaultHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let counter: ConnectionCounter
    private let log: FileRequestLog
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var streaming: (offset: Int, end: Int)?

    init(counter: ConnectionCounter, log: FileRequestLog) {
        self.counter = counter
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        counter.opened()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            if let head { respond(to: head, context: context) }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump(context: context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        streaming = nil
        counter.closed()
        context.fireChannelInactive()
    }

    // MARK: - Routes

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        // An absolute URI is a request sent to this server as an HTTP proxy: it is served here.
        if head.uri.hasPrefix("http://") {
            log.recordProxied(head.uri)
            if URLComponents(string: head.uri)?.host?.hasPrefix("authproxy") == true,
                head.headers.first(name: "Proxy-Authorization") != "Basic "
                    + Data("proxy:pw".utf8).base64EncodedString()
            {
                send(
                    context, HTTPResponseStatus(statusCode: 407),
                    headers: ["Proxy-Authenticate": "Basic realm=\"haul-proxy\""],
                    body: Array("proxy says no".utf8))
                return
            }
        }
        let components = URLComponents(string: head.uri)
        let parts = (components?.path ?? head.uri).split(separator: "/").map(String.init)
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
        let number = parts.count > 1 ? Int(parts[1]) ?? 0 : 0

        switch parts.first ?? "" {
        case "bytes":
            if let range = head.headers.first(name: "Range"),
                let (start, end) = FaultHandler.parseRange(range, size: number)
            {
                send(
                    context, .partialContent, headers: ["Content-Range": "bytes \(start)-\(end - 1)/\(number)"],
                    body: TestPattern.bytes(offset: start, count: end - start))
            } else {
                send(context, .ok, headers: ["Accept-Ranges": "bytes"], body: TestPattern.bytes(count: number))
            }
        case "chunked":
            sendHead(context, .ok, headers: [:])
            let payload = TestPattern.bytes(count: number)
            for start in stride(from: 0, to: payload.count, by: 1000) {
                sendBody(context, payload[start..<min(start + 1000, payload.count)])
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case "gzip":
            send(
                context, .ok, headers: ["Content-Encoding": "gzip"],
                body: StoredGzip.stored(TestPattern.bytes(count: number)))
        case "huge":
            sendHead(context, .ok, headers: ["Content-Length": String(number)])
            streaming = (0, number)
            pump(context: context)
        case "redirect":
            send(
                context, HTTPResponseStatus(statusCode: number), headers: ["Location": query["to"] ?? "/bytes/10"],
                body: Array("redirect body".utf8))
        case "chain":
            if number > 0 {
                send(context, .found, headers: ["Location": "/chain/\(number - 1)"], body: Array("hop".utf8))
            } else {
                send(context, .ok, body: TestPattern.bytes(count: 100))
            }
        case "loop":
            send(context, .found, headers: ["Location": "/loop"], body: [])
        case "status":
            send(context, HTTPResponseStatus(statusCode: number), body: Array("status \(number) body".utf8))
        case "drop":
            let sent = Int(query["sent"] ?? "") ?? number / 2
            sendHead(context, .ok, headers: ["Content-Length": String(number)])
            sendBody(context, TestPattern.bytes(count: sent)[...])
            let channel = context.channel
            context.flush()
            channel.close(promise: nil)
        case "stall":
            sendHead(context, .ok, headers: ["Content-Length": "1000"])
            sendBody(context, TestPattern.bytes(count: 10)[...])
            context.flush()
        case "upload":
            send(context, .ok, headers: ["X-Received-Length": String(body.count)], body: body)
        case "auth":
            let answer = AuthChallenge.answer(
                scheme: parts.count > 1 ? parts[1] : "", query: query, method: head.method.rawValue,
                authorization: head.headers.first(name: "Authorization"))
            send(
                context, HTTPResponseStatus(statusCode: answer.status),
                headers: answer.headers.merging(["X-Received-Length": String(body.count)]) { $1 },
                body: Array(answer.body.utf8))
        case "peer":
            let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
            send(context, .ok, body: Array(peer.utf8))
        case "headers":
            if query["challenge"] == "basic", head.headers.first(name: "Authorization") == nil {
                send(context, .unauthorized, headers: ["WWW-Authenticate": "Basic realm=\"haul-tests\""], body: [])
                return
            }
            let text = head.headers.map { "\($0.name): \($0.value)\n" }.joined()
            send(context, .ok, body: Array(text.utf8))
        case "multipart":
            let body =
                query["nodelimiter"] == nil
                ? FaultHandler.multipartBody(parts: number) : Array("no delimiter at all".utf8)
            sendHead(context, .ok, headers: ["Content-Type": "multipart/x-mixed-replace; boundary=\"frame\""])
            context.flush()
            FaultHandler.drip(body[...], step: Int(query["chunk"] ?? "") ?? body.count, channel: context.channel)
        case "cookies":
            let head = HTTPResponseHead(
                version: .http1_1, status: .ok,
                headers: NIOHTTP1.HTTPHeaders(
                    query.sorted { $0.key < $1.key }.map { ("Set-Cookie", "\($0.key)=\($0.value); Path=/") }
                        + [("Content-Length", "2")]))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            sendBody(context, Array("ok".utf8)[...])
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case "disposition":
            send(context, .ok, headers: ["Content-Disposition": query["value"] ?? ""], body: Array("x".utf8))
        case "bigheaders":
            // N header lines of `line` bytes each (1000 by default).
            let line = String(repeating: "a", count: Int(query["line"] ?? "") ?? 1000)
            let head = HTTPResponseHead(
                version: .http1_1, status: .ok,
                headers: NIOHTTP1.HTTPHeaders(
                    (0..<max(number, 1)).map { ("X-Big-\($0)", line) }
                        + [("Content-Length", "2")]))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            sendBody(context, Array("ok".utf8)[...])
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case "empty":
            send(context, .noContent, body: nil)
        case "cacheable":
            let count = log.record(
                key: query["key"] ?? "", range: nil, ifRange: nil,
                validator: head.headers.first(name: "If-None-Match") ?? head.headers.first(name: "If-Modified-Since"))
            let answer = CacheRoute.answer(
                size: number, query: query, ifNoneMatch: head.headers.first(name: "If-None-Match"),
                ifModifiedSince: head.headers.first(name: "If-Modified-Since"), count: count)
            send(context, HTTPResponseStatus(statusCode: answer.status), headers: answer.headers, body: answer.body)
        case "file":
            serveFile(size: number, query: query, head: head, context: context)
        default:
            send(context, .notFound, body: Array("no such route".utf8))
        }
    }

    /// `/file/N`: see the route list on `FaultServer`.
    private func serveFile(size: Int, query: [String: String], head: HTTPRequestHead, context: ChannelHandlerContext) {
        let key = query["key"] ?? ""
        let range = head.headers.first(name: "Range")
        let count = log.record(key: key, range: range, ifRange: head.headers.first(name: "If-Range"))
        let etag = query["etag"] == "changing" ? "\"v\(count)\"" : "\"v1\""
        if let code = Int(query["fail"] ?? ""), count <= Int(query["times"] ?? "1") ?? 1 {
            var headers = ["ETag": etag]
            if let retryAfter = query["retryAfter"] { headers["Retry-After"] = retryAfter }
            send(context, HTTPResponseStatus(statusCode: code), headers: headers, body: Array("try later".utf8))
            return
        }
        var start = 0
        var end = size
        var status = HTTPResponseStatus.ok
        let lastModified = "Tue, 01 Sep 2026 10:00:00 GMT"
        if head.headers.first(name: "If-None-Match") == etag
            || head.headers.first(name: "If-Modified-Since").flatMap(HTTPDate.parse).map({
                $0 >= (HTTPDate.parse(lastModified) ?? .distantFuture)
            }) == true
        {
            send(context, .notModified, headers: ["ETag": etag, "Last-Modified": lastModified], body: nil)
            return
        }
        var headers = ["ETag": etag, "Accept-Ranges": "bytes", "Last-Modified": lastModified]
        // A server that ignores ranges does not offer them either.
        if query["ranges"] == "ignore" { headers["Accept-Ranges"] = nil }
        if query["validators"] == "none" {
            headers["ETag"] = nil
            headers["Last-Modified"] = nil
        }
        if let disposition = query["disposition"] { headers["Content-Disposition"] = disposition }
        if let mirror = query["duplicate"] { headers["Link"] = "<\(mirror)>; rel=duplicate; pri=1; geo=de" }
        if let digest = query["digest"] { headers["Digest"] = digest }
        if range == nil, let unasked = query["unasked206"] {
            // A 206 nobody asked for: the whole file (`whole`), or its first half.
            end = unasked == "whole" ? size : size / 2
            headers["Content-Range"] = "bytes 0-\(end - 1)/\(size)"
            send(context, .partialContent, headers: headers, body: TestPattern.bytes(count: end))
            return
        }
        if let range, let ranged = query["ranged"] {
            refuseRanged(ranged, range: range, size: size, headers: headers, query: query, context: context)
            return
        }
        let ifRangeMatches = head.headers.first(name: "If-Range").map { $0 == etag } ?? true
        if let range, query["ranges"] != "ignore", ifRangeMatches || query["ifrange"] == "ignore" {
            if query["ranges"] == "416" {
                send(context, .rangeNotSatisfiable, headers: ["Content-Range": "bytes */\(size)"], body: [])
                return
            }
            if let (from, to) = FaultHandler.parseRange(range, size: size) {
                (start, end, status) = (from, to, .partialContent)
                headers["Content-Range"] = "bytes \(from)-\(to - 1)/\(size)"
            }
        }
        let trickleParameter =
            count == 1 && query["trickle"] != nil
            ? "trickle"
            : count == 2 && query["crawl"] != nil ? "crawl" : log.isPaceLifted(for: key) ? "" : "pace"
        if let trickle = Int(query[trickleParameter] ?? ""), trickle > 0 {
            // `chunked`: a whole file sent with no length (a range still has one).
            if query["chunked"] == nil || status == .partialContent { headers["Content-Length"] = String(end - start) }
            sendHead(context, status, headers: headers)
            context.flush()
            let stallAfter = Int(query["stallafter"] ?? "")
            FaultHandler.trickle(
                from: start, to: stallAfter.map { min(end, start + $0) } ?? end, step: trickle,
                ends: stallAfter == nil, channel: context.channel)
            return
        }
        if count == 1, let stall = Int(query["stall"] ?? "") {
            headers["Content-Length"] = String(end - start)
            sendHead(context, status, headers: headers)
            sendBody(context, TestPattern.bytes(offset: start, count: min(stall, end - start))[...])
            context.flush()
            return
        }
        if count == 1, let drop = Int(query["drop"] ?? "") {
            headers["Content-Length"] = String(end - start)
            sendHead(context, status, headers: headers)
            sendBody(context, TestPattern.bytes(offset: start, count: min(drop, end - start))[...])
            let channel = context.channel
            context.flush()
            channel.close(promise: nil)
            return
        }
        var body = TestPattern.bytes(offset: start, count: end - start)
        if let corrupt = Int(query["corrupt"] ?? ""), (start..<end).contains(corrupt) {
            body[corrupt - start] ^= 0xFF
        }
        if let every = Int(query["corruptEvery"] ?? ""), every > 0 {
            // Every byte at a multiple of `every` is wrong: a mirror with many bad pieces.
            for offset in stride(from: (start + every - 1) / every * every, to: end, by: every) {
                body[offset - start] ^= 0xFF
            }
        }
        send(context, status, headers: headers, body: body)
    }

    /// A ranged request to a server that takes one connection a client: `ranged=CODE` answers CODE
    /// (with `retryAfter`); `ranged=cut` sends the 206's headers and closes.
    private func refuseRanged(
        _ ranged: String, range: String, size: Int, headers: [String: String], query: [String: String],
        context: ChannelHandlerContext
    ) {
        guard ranged == "cut" else {
            var refusal = ["ETag": headers["ETag"] ?? ""]
            if let retryAfter = query["retryAfter"] { refusal["Retry-After"] = retryAfter }
            send(context, HTTPResponseStatus(statusCode: Int(ranged) ?? 503), headers: refusal, body: [])
            return
        }
        let (from, to) = FaultHandler.parseRange(range, size: size) ?? (0, size)
        var cut = headers
        cut["Content-Range"] = "bytes \(from)-\(to - 1)/\(size)"
        cut["Content-Length"] = String(to - from)
        sendHead(context, .partialContent, headers: cut)
        let channel = context.channel
        context.flush()
        channel.close(promise: nil)
    }

    /// Writes `step` body bytes every 100 ms until `end`, or until the client goes away; then
    /// ends the response, unless `ends` is false (the rest never comes).
    private static func trickle(from start: Int, to end: Int, step: Int, ends: Bool = true, channel: any Channel) {
        guard start < end, channel.isActive else { return }
        let count = min(step, end - start)
        var buffer = channel.allocator.buffer(capacity: count)
        TestPattern.forEachRun(offset: start, count: count) { buffer.writeBytes($0) }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        if start + count == end {
            if ends { channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil) }
            return
        }
        channel.eventLoop.scheduleTask(in: .milliseconds(100)) {
            trickle(from: start + count, to: end, step: step, ends: ends, channel: channel)
        }
    }

    static func multipartBody(parts: Int) -> [UInt8] {
        var body = Array("a preamble to ignore\r\n".utf8)
        for index in 1...max(parts, 1) {
            let part = FaultServer.multipartPart(index)
            body += Array("--frame\r\nContent-Type: \(part.type)\r\n\r\n".utf8) + part.data + Array("\r\n".utf8)
        }
        return body + Array("--frame--\r\n".utf8)
    }

    /// Writes `bytes` `step` at a time every 5 ms, then ends the response.
    private static func drip(_ bytes: ArraySlice<UInt8>, step: Int, channel: any Channel) {
        guard channel.isActive else { return }
        let chunk = bytes.prefix(max(step, 1))
        var buffer = channel.allocator.buffer(capacity: chunk.count)
        buffer.writeBytes(chunk)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        let rest = bytes.dropFirst(chunk.count)
        guard !rest.isEmpty else {
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
            return
        }
        channel.eventLoop.scheduleTask(in: .milliseconds(5)) { drip(rest, step: step, channel: channel) }
    }

    /// `bytes=a-b` or `bytes=a-` as a half-open range within `size`, or nil.
    static func parseRange(_ value: String, size: Int) -> (Int, Int)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]), start < size else { return nil }
        let end = parts[1].isEmpty ? size : min((Int(parts[1]) ?? size - 1) + 1, size)
        return end > start ? (start, end) : nil
    }

    // MARK: - Writing

    private func send(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, headers: [String: String] = [:],
        body: [UInt8]?
    ) {
        var headers = headers
        if let body { headers["Content-Length"] = String(body.count) }
        sendHead(context, status, headers: headers)
        if let body, !body.isEmpty { sendBody(context, body[...]) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func sendHead(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, headers: [String: String]) {
        let head = HTTPResponseHead(
            version: .http1_1, status: status, headers: NIOHTTP1.HTTPHeaders(headers.map { ($0.key, $0.value) }))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func sendBody(_ context: ChannelHandlerContext, _ bytes: ArraySlice<UInt8>) {
        var buffer = context.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }

    /// Writes the generated body while the channel takes it; resumes when it is writable again.
    private func pump(context: ChannelHandlerContext) {
        while let (offset, end) = streaming, context.channel.isWritable {
            if offset == end {
                streaming = nil
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let count = min(256 * 1024, end - offset)
            var buffer = context.channel.allocator.buffer(capacity: count)
            TestPattern.forEachRun(offset: offset, count: count) { buffer.writeBytes($0) }
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            streaming = (offset + count, end)
        }
        context.flush()
    }
}

// MARK: - ConnectionCounter

/// Counts a server's TCP connections, for tests of reuse and per-host caps.
public final class ConnectionCounter: Sendable {
    private let counts = Mutex((accepted: 0, open: 0, maximumOpen: 0))

    public var accepted: Int { counts.withLock { $0.accepted } }
    public var open: Int { counts.withLock { $0.open } }
    public var maximumOpen: Int { counts.withLock { $0.maximumOpen } }

    /// Starts a new measuring window: the maximum becomes the number open now.
    public func resetMaximum() {
        counts.withLock { $0.maximumOpen = $0.open }
    }

    func opened() {
        counts.withLock { counts in
            counts.accepted += 1
            counts.open += 1
            counts.maximumOpen = max(counts.maximumOpen, counts.open)
        }
    }

    func closed() {
        counts.withLock { $0.open -= 1 }
    }
}

// MARK: - FileRequestLog

/// The `/file/…` requests per key: how many, and the Range and If-Range each carried; and the
/// requests received as a proxy.
public final class FileRequestLog: Sendable {
    public struct Entry: Sendable, Equatable {
        public let range: String?
        public let ifRange: String?
        /// The `If-None-Match` (else `If-Modified-Since`) a `/cacheable/` request carried.
        public let validator: String?
    }

    private let entries = Mutex<[String: [Entry]]>([:])
    private let unpaced = Mutex<Set<String>>([])
    private let proxiedURIs = Mutex<[String]>([])

    public func requests(for key: String) -> [Entry] {
        entries.withLock { $0[key] ?? [] }
    }

    /// From now on, requests for `key` ignore `pace` and are sent at full speed.
    public func liftPace(for key: String) {
        _ = unpaced.withLock { $0.insert(key) }
    }

    func isPaceLifted(for key: String) -> Bool {
        unpaced.withLock { $0.contains(key) }
    }

    /// The absolute URIs of requests sent to the server as a proxy, in order.
    public var proxied: [String] {
        proxiedURIs.withLock { $0 }
    }

    func recordProxied(_ uri: String) {
        proxiedURIs.withLock { $0.append(uri) }
    }

    /// Records a request and returns its number for `key`, from 1.
    func record(key: String, range: String?, ifRange: String?, validator: String? = nil) -> Int {
        entries.withLock { entries in
            entries[key, default: []].append(Entry(range: range, ifRange: ifRange, validator: validator))
            return entries[key]?.count ?? 0
        }
    }
}
