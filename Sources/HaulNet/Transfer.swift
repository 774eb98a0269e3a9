import CCurl
import Foundation

// MARK: - Transfer

/// The engine thread's side of one `Connection`: its easy handle, the hop in progress, the
/// response being parsed, and where the body goes. Used on the engine thread only; libcurl
/// calls its callbacks from inside `curl_multi_perform` on that thread.
final class Transfer {
    private enum Phase {
        /// Waiting for the final response of this hop.
        case headers
        /// A redirect arrived; its body is kept in case the delegate refuses to follow.
        case redirectBody(Response)
        /// The delegate is deciding whether to follow.
        case awaitingRedirect(Response)
        /// A 401 or 407 challenge libcurl does not answer; its body is kept in case the delegate
        /// chooses default handling.
        case challengeBody(Response)
        /// The delegate is deciding how to answer the challenge.
        case awaitingChallenge(Response)
        /// The delegate is deciding what to do with the body; writes pause meanwhile.
        case awaitingDisposition
        case deliver
        /// Splitting a `multipart/x-mixed-replace` body: each part is delivered as a response
        /// followed by its data.
        case multipart
        case download(FileSink)
        case ended
    }

    /// A redirect's or challenge's body larger than this fails the load (they carry a short note).
    private static let redirectBodyLimit = 1 << 20
    /// Response headers larger than this (all lines of one response) fail the load.
    static let headLimit = 256 * 1024

    let connection: Connection
    private let multi: UnsafeMutableRawPointer
    private var easy: UnsafeMutableRawPointer?
    private let bufferSize: Int
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var request: Request
    private var phase = Phase.headers
    private var head = ResponseHead()
    /// Bytes of header lines this hop has received.
    private var headBytes = 0
    private var response: Response?
    private var hops = 0
    private var heldBody: [UInt8] = []
    /// The parts of a `multipart/x-mixed-replace` body, and the response that announced them.
    private var multipart: MultipartReplaceParser?
    private var multipartResponse: Response?
    /// The file the current part is written to, when the delegate made a part a download: each
    /// part replaces the one before, so the file ends as the last part.
    private var partSink: FileSink?
    /// A 401 or 407 whose Basic or Digest challenge libcurl answers with the request's
    /// credentials by sending the request again: the answer to that is the response. Kept in
    /// case libcurl does not ask again after all.
    private var pendingChallenge: Response?
    /// Credentials sent (by libcurl, from the request) and refused, for the server and the proxy.
    private var refusedCredentials = (server: 0, proxy: 0)
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var upload: UploadSource?
    private var failure: ConnectionError?
    private var inMulti = false
    private var paused = false
    private var completedWhileDeciding = false
    /// The body reached its target's `end`: the write was stopped on purpose, a success.
    private var endedAtLimit = false
    private var limiter: TokenBucket?
    private let overallLimit: SharedLimit
    /// What this transfer shares with the engine's others (TLS sessions, DNS, cookies if on).
    private let share: ShareHandle?
    /// When a transfer paused by its speed cap may receive again (CLOCK_MONOTONIC ns).
    private(set) var resumeAt: UInt64?

    init(
        connection: Connection, multi: UnsafeMutableRawPointer, bufferSize: Int, overallLimit: SharedLimit,
        share: ShareHandle?
    ) {
        self.connection = connection
        self.overallLimit = overallLimit
        self.share = share
        self.multi = multi
        self.bufferSize = bufferSize
        // The current request: the original one, with any speed cap set before the start.
        request = connection.currentRequest
        limiter = request.maxReceiveSpeed.map { TokenBucket(rate: $0) }
        easy = curl_easy_init()
        errorBuffer.initialize(to: 0)
    }

    deinit {
        close()
        errorBuffer.deallocate()
    }

    /// True once the connection has had its ending (or was cancelled); the loop then closes it.
    var hasEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    // MARK: - Life cycle

    /// Starts the first hop.
    func begin() {
        EngineThread.precondition()
        startHop()
    }

    private func startHop() {
        phase = .headers
        head = ResponseHead()
        headBytes = 0
        heldBody = []
        multipart = nil
        multipartResponse = nil
        partSink = nil
        pendingChallenge = nil
        paused = false
        failure = nil
        completedWhileDeciding = false
        do {
            try configure()
        } catch {
            fail(error)
            return
        }
        guard let easy, curl_multi_add_handle(multi, easy) == CURLM_OK else {
            fail(ConnectionError(kind: .transport, url: request.url, detail: "libcurl refused the transfer"))
            return
        }
        inMulti = true
    }

    /// Releases the easy handle and the file, without telling the delegate anything.
    func close() {
        EngineThread.precondition()
        detach()
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        freeHeaderList()
    }

    private func fail(_ error: ConnectionError) {
        connection.engineFail(error)
        detach()
    }

    private func finish() {
        if case .multipart = phase {
            // A stream that ended before its first part has nothing to deliver: it failed.
            guard response != nil else {
                fail(
                    ConnectionError(
                        kind: .badResponse, url: request.url,
                        detail: "the multipart/x-mixed-replace reply ended before its first part"))
                return
            }
            if let partSink { phase = .download(partSink) }
        }
        if case .download(let sink) = phase {
            do {
                let written = try sink.finish(url: request.url)
                if written > 0 {
                    connection.engineReportWritten(written, expected: response?.expectedContentLength ?? -1)
                }
            } catch {
                fail(error)
                return
            }
            connection.engineFinishDownload(path: sink.path)
        }
        connection.engineFinish()
        detach()
    }

    /// Takes the transfer off the multi handle and closes its file; it has ended.
    private func detach() {
        if let easy, inMulti { curl_multi_remove_handle(multi, easy) }
        inMulti = false
        if case .download(let sink) = phase { sink.close() }
        partSink?.close()
        overallLimit.leave(connection.id)
        phase = .ended
    }

    // MARK: - Commands from other threads

    /// libcurl reports this hop's transfer done with `result`.
    func hopCompleted(_ result: CURLcode) {
        EngineThread.precondition()
        if let easy, inMulti { curl_multi_remove_handle(multi, easy) }
        inMulti = false
        if endedAtLimit, failure == nil {
            finish()
            return
        }
        if let failure {
            fail(failure)
            return
        }
        guard result == CURLE_OK else {
            fail(
                ConnectionError(
                    curlCode: result, errorBuffer: String(cString: errorBuffer), url: request.url,
                    proxy: request.proxies.proxyUsed(for: request.url)))
            return
        }
        switch phase {
        case .headers:
            // No HTTP head was seen (ftp, or a body-less answer): the response is what libcurl knows.
            completedWhileDeciding = true
            deliverFinalResponse(pendingChallenge ?? synthesizedResponse())
        case .redirectBody(let response):
            switch RedirectPolicy.nextRequest(after: request, response: response, hopsSoFar: hops) {
            case .failure(let error):
                fail(error)
            case .success(let next):
                phase = .awaitingRedirect(response)
                let id = connection.id, engine = connection.engine
                connection.engineAskRedirect(next, response: response) { decision in
                    engine.submit(.redirectDecision(id, decision))
                }
            }
        case .challengeBody(let response):
            askChallenge(response)
        case .awaitingDisposition:
            completedWhileDeciding = true
            multipart?.end()
        case .multipart:
            completedWhileDeciding = true
            multipart?.end()
            continueMultipart()
        case .deliver, .download:
            finish()
        case .awaitingRedirect, .awaitingChallenge, .ended:
            break
        }
    }

    /// The delegate answered `willSend`: follow `next`, or (nil) take the redirect as final.
    func redirectDecided(_ next: Request?) {
        EngineThread.precondition()
        guard case .awaitingRedirect(let response) = phase else { return }
        guard let next else {
            completedWhileDeciding = true
            deliverFinalResponse(response)
            return
        }
        if let error = RedirectPolicy.schemeError(next.url) {
            fail(error)
            return
        }
        hops += 1
        let resend = next.body != nil
        request = next
        if resend { connection.engineResetSent() }
        startHop()
    }

    /// The delegate answered a challenge: send the request again with its credentials, take
    /// the 401 or 407 as the final response, or fail.
    func challengeDecided(_ disposition: ChallengeDisposition) {
        EngineThread.precondition()
        guard case .awaitingChallenge(let response) = phase else { return }
        switch disposition {
        case .useCredential(let credentials):
            if response.statusCode == 407 {
                request.proxyCredentials = credentials
            } else {
                request.credentials = credentials
            }
            if request.body != nil { connection.engineResetSent() }
            startHop()
        case .performDefaultHandling:
            completedWhileDeciding = true
            deliverFinalResponse(response)
        case .cancel:
            fail(ConnectionError(kind: .authenticationCancelled, url: request.url))
        }
    }

    /// The delegate answered `didReceive(response)`.
    func dispositionDecided(_ disposition: ResponseDisposition) {
        EngineThread.precondition()
        guard case .awaitingDisposition = phase else { return }
        if multipart != nil {
            partDispositionDecided(disposition)
            return
        }
        switch disposition {
        case .cancel:
            detach()
            return
        case .allow:
            phase = .deliver
        case .becomeDownload(let target):
            do {
                phase = .download(try FileSink(target: target, url: request.url))
            } catch {
                fail(error)
                return
            }
        }
        if !heldBody.isEmpty {
            let body = heldBody
            heldBody = []
            let consumed = body.withUnsafeBytes { sink($0) }
            if consumed != body.count {
                fail(failure ?? ConnectionError(kind: .transport, url: request.url, detail: "body not accepted"))
                return
            }
        }
        if completedWhileDeciding {
            finish()
        } else {
            resumeReceiving()
        }
    }

    /// The delegate has taken the data it was behind on: a multipart body goes on with its
    /// parts; any other transfer receives again.
    func deliveryCaughtUp() {
        EngineThread.precondition()
        if case .multipart = phase {
            continueMultipart()
        } else {
            resumeReceiving()
        }
    }

    /// Unpauses a transfer paused for the delegate (disposition or backpressure) or its speed cap.
    func resumeReceiving() {
        EngineThread.precondition()
        guard paused, let easy else { return }
        paused = false
        resumeAt = nil
        curl_easy_pause(easy, Int32(haul_curlpause_cont))
    }

    /// Ends the body at file offset `end` (only ever earlier): another connection takes the
    /// rest. A body already there ends now, successfully.
    func limitDownload(to end: Int64) {
        EngineThread.precondition()
        guard case .download(let sink) = phase else { return }
        sink.limit(to: end)
        guard sink.reachedEnd else { return }
        endedAtLimit = true
        if let easy, inMulti { curl_multi_remove_handle(multi, easy) }
        inMulti = false
        finish()
    }

    /// Changes the speed cap; a transfer waiting on the old cap is woken to try the new one.
    func setMaxReceiveSpeed(_ speed: Int64?) {
        EngineThread.precondition()
        request.maxReceiveSpeed = speed
        limiter = speed.map { TokenBucket(rate: $0) }
        wakeIfWaitingOnCap()
    }

    /// A transfer waiting on a cap that changed tries again now.
    func wakeIfWaitingOnCap() {
        EngineThread.precondition()
        if resumeAt != nil { resumeReceiving() }
    }

    // MARK: - Responses

    private func deliverFinalResponse(_ response: Response) {
        self.response = response
        phase = .awaitingDisposition
        let id = connection.id, engine = connection.engine
        connection.engineDeliverResponse(response) { disposition in
            engine.submit(.disposition(id, disposition))
        }
    }

    /// The response of a load that had no HTTP head: status 0 and the length libcurl knows.
    private func synthesizedResponse() -> Response {
        var length: curl_off_t = -1
        if let easy { haul_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) }
        var headers = HTTPHeaders()
        if length >= 0 { headers.add("Content-Length", String(length)) }
        return Response(url: request.url, statusCode: 0, reasonPhrase: "OK", httpVersion: "", headers: headers)
    }

    /// The challenge `response` carries, if it is a 401 or 407 with one.
    private func authenticationChallenge(in response: Response) -> AuthenticationChallenge? {
        let proxy = response.statusCode == 407
        return AuthenticationChallenge(
            response: response,
            previousFailureCount: proxy ? refusedCredentials.proxy : refusedCredentials.server,
            proposedCredential: proxy ? request.proxyCredentials : request.credentials)
    }

    /// Whether libcurl will send the request again with credentials for `challenge`: a first
    /// Basic or Digest challenge (libcurl sends none before it is asked) when the request has
    /// credentials for it.
    private func answersChallenge(_ challenge: AuthenticationChallenge) -> Bool {
        pendingChallenge == nil && challenge.proposedCredential != nil && challenge.offersBasicOrDigest
    }

    /// A challenge libcurl did not answer, its body held: the delegate decides.
    private func askChallenge(_ response: Response) {
        guard let challenge = authenticationChallenge(in: response) else { return }
        phase = .awaitingChallenge(response)
        let id = connection.id, engine = connection.engine
        connection.engineAskChallenge(challenge) { decision in
            engine.submit(.challengeDecision(id, decision))
        }
    }

    // MARK: - libcurl callbacks

    /// One header line (CRLF included), from CURLOPT_HEADERFUNCTION.
    fileprivate func receivedHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        EngineThread.precondition()
        guard case .headers = phase, request.url.isHTTP else { return bytes.count }
        headBytes += bytes.count
        guard headBytes <= Transfer.headLimit else {
            failure = ConnectionError(
                kind: .badResponse, url: request.url,
                detail: "its headers are larger than \(Transfer.headLimit / 1024) KiB")
            return 0
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingLineEnd()
        if line.hasPrefix("HTTP/") {
            head.begin(statusLine: line)
        } else if line.isEmpty {
            headEnded()
        } else {
            head.add(headerLine: line)
        }
        return bytes.count
    }

    private func headEnded() {
        guard let status = head.statusCode, status >= 200 else { return }
        let response = head.response(url: request.url)
        if let demand = authenticationChallenge(in: response) {
            if answersChallenge(demand) {
                pendingChallenge = response
                return
            }
            // Credentials libcurl sent in answer to the challenge before this one were refused;
            // a first challenge in a scheme libcurl cannot answer never saw them.
            if demand.proposedCredential != nil, pendingChallenge != nil {
                if demand.isProxy { refusedCredentials.proxy += 1 } else { refusedCredentials.server += 1 }
            }
            phase = .challengeBody(response)
            return
        }
        if RedirectPolicy.isRedirect(response) {
            phase = .redirectBody(response)
        } else if (200..<300).contains(response.statusCode),
            let parser = MultipartReplaceParser(contentType: response.headers["Content-Type"])
        {
            multipart = parser
            multipartResponse = response
            phase = .multipart
        } else {
            deliverFinalResponse(response)
        }
    }

    // MARK: - multipart/x-mixed-replace

    /// Hands on what the parser has: data to the delegate, and a new part as a response (then
    /// waits for its disposition). False when it must wait (for a disposition, or for the
    /// delegate to catch up) or when writing a part to its file failed (`failure` says why).
    private func pumpMultipart() -> Bool {
        while let event = multipart?.next() {
            switch event {
            case .part(let headers):
                let outer = multipartResponse ?? Response(url: request.url, statusCode: 200)
                var part = Response(
                    url: request.url, statusCode: outer.statusCode, reasonPhrase: outer.reasonPhrase,
                    httpVersion: outer.httpVersion, headers: headers)
                part.isMultipartPart = true
                deliverFinalResponse(part)
                return false
            case .data(let bytes):
                if let partSink {
                    let url = request.url
                    let outcome = bytes.withUnsafeBytes { buffer in
                        Result { () throws(ConnectionError) in try partSink.write(buffer, url: url) }
                    }
                    switch outcome {
                    case .success(let written):
                        if written > 0 {
                            connection.engineReportWritten(written, expected: response?.expectedContentLength ?? -1)
                        }
                    case .failure(let error):
                        failure = error
                        return false
                    }
                } else if !bytes.withUnsafeBytes({ connection.engineEnqueueData($0) }) {
                    multipart?.unread(bytes)
                    return false
                }
            case .malformed(let detail):
                failure = ConnectionError(kind: .badResponse, url: request.url, detail: detail)
                return false
            }
        }
        return true
    }

    /// Delivers what can be delivered, then receives on, ends, or waits.
    private func continueMultipart() {
        guard pumpMultipart() else {
            if let failure { fail(failure) } else { pauseReceiving() }
            return
        }
        if completedWhileDeciding { finish() } else { resumeReceiving() }
    }

    /// The delegate answered a part's response: its data follows (to the delegate, or to the
    /// download's file, where it replaces the part before), or the load stops.
    private func partDispositionDecided(_ disposition: ResponseDisposition) {
        switch disposition {
        case .cancel:
            detach()
            return
        case .allow:
            partSink?.close()
            partSink = nil
        case .becomeDownload(let target):
            partSink?.close()
            do {
                partSink = try FileSink(target: target, url: request.url)
            } catch {
                partSink = nil
                fail(error)
                return
            }
        }
        phase = .multipart
        continueMultipart()
    }

    /// Pauses receiving from inside or outside libcurl's callbacks (a no-op once the hop ended).
    private func pauseReceiving() {
        guard !paused, inMulti, let easy else { return }
        paused = true
        curl_easy_pause(easy, Int32(haul_curlpause_recv))
    }

    /// Body bytes, from CURLOPT_WRITEFUNCTION. Returns the count taken, 0 to abort, or the
    /// pause value.
    fileprivate func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        EngineThread.precondition()
        if case .headers = phase {
            deliverFinalResponse(pendingChallenge ?? synthesizedResponse())
        }
        switch phase {
        case .redirectBody, .challengeBody:
            guard heldBody.count + bytes.count <= Transfer.redirectBodyLimit else {
                failure = ConnectionError(
                    kind: .transport, url: request.url, detail: "redirect or challenge body over 1 MiB")
                return 0
            }
            heldBody.append(contentsOf: bytes)
            return bytes.count
        case .awaitingDisposition:
            paused = true
            return haul_writefunc_pause
        case .multipart:
            multipart?.feed(bytes)
            if !pumpMultipart() {
                // A failed write ends the hop; libcurl reports it, and `failure` says why.
                if failure != nil { return 0 }
                pauseReceiving()
            }
            return bytes.count
        default:
            return consume(bytes)
        }
    }

    /// Hands body bytes on, unless this transfer's cap or the engine-wide cap says to wait.
    private func consume(_ bytes: UnsafeRawBufferPointer) -> Int {
        if limiter != nil || overallLimit.isSet {
            let now = MonotonicClock.nanoseconds()
            // The longer of the two waits, without building an array on every write callback.
            let own = limiter?.delay(for: bytes.count, now: now)
            let shared = overallLimit.delay(for: connection.id, count: bytes.count, now: now)
            if let wait = own.map({ max($0, shared ?? 0) }) ?? shared {
                // Held back by its own cap alone: the shared cap's turn goes to the next in line.
                if shared == nil { overallLimit.leave(connection.id) }
                resumeAt = now + wait
                paused = true
                return haul_writefunc_pause
            }
            limiter?.take(bytes.count)
            overallLimit.take(bytes.count, by: connection.id)
        }
        return sink(bytes)
    }

    /// Hands body bytes to the delegate or the file.
    private func sink(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch phase {
        case .deliver:
            if connection.engineEnqueueData(bytes) { return bytes.count }
            paused = true
            return haul_writefunc_pause
        case .download(let sink):
            let room = sink.room
            do {
                let written = try sink.write(bytes, url: request.url)
                if written > 0 {
                    connection.engineReportWritten(written, expected: response?.expectedContentLength ?? -1)
                }
            } catch {
                failure = error
                return 0
            }
            // The segment is complete and the server would send more (a body running past it):
            // stop it here, not when the next bytes come, which a rate-capping server may
            // hold back for a while. libcurl ends it as a write error.
            if let room, room < Int64(bytes.count) || (sink.reachedEnd && bodyRunsPast(sink)) {
                endedAtLimit = true
                return 0
            }
            return bytes.count
        default:
            return 0
        }
    }

    /// Whether the response body goes on past where `sink` stops: the request asked for more
    /// than the segment (an open range, or a segment cut short by a steal).
    private func bodyRunsPast(_ sink: FileSink) -> Bool {
        guard let end = sink.end else { return false }
        guard let last = request.byteRange?.upperBound else { return true }
        return last + 1 > end
    }

    /// Request-body bytes, from CURLOPT_READFUNCTION.
    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        EngineThread.precondition()
        guard let upload else { return 0 }
        do {
            let count = try upload.read(into: buffer)
            if count > 0 { connection.engineReportSent(Int64(count), expected: request.body?.length ?? -1) }
            return count
        } catch {
            failure = ConnectionError(kind: .bodyStream, url: request.url, detail: "\(error)")
            return haul_readfunc_abort
        }
    }

    /// Starts the request body again, from CURLOPT_SEEKFUNCTION: only a rewind to the start is
    /// possible, and it takes a new stream from the body's provider (none fails the load).
    fileprivate func rewindBody(to offset: Int64, origin: Int32) -> Int32 {
        EngineThread.precondition()
        guard offset == 0, origin == SEEK_SET, let body = request.body else { return haul_seekfunc_fail }
        guard let source = UploadSource(body) else {
            failure = ConnectionError(
                kind: .bodyStream, url: request.url, detail: "no new body stream was given to send the body again")
            return haul_seekfunc_fail
        }
        upload = source
        connection.engineResetSent()
        return haul_seekfunc_ok
    }

    // MARK: - Configuration

    /// Sets every option of the current hop on a freshly reset easy handle.
    private func configure() throws(ConnectionError) {
        guard let easy else {
            throw ConnectionError(kind: .transport, url: request.url, detail: "libcurl could not allocate a handle")
        }
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard Request.supportedSchemes.contains(scheme) else {
            throw ConnectionError(kind: .unsupportedScheme(scheme), url: request.url)
        }
        if request.cachePolicy == .returnCacheDataDontLoad {
            throw ConnectionError(kind: .notInCache, url: request.url)
        }
        curl_easy_reset(easy)
        freeHeaderList()
        errorBuffer.initialize(to: 0)
        var options = EasyOptions(easy: easy)
        let me = Unmanaged.passUnretained(self).toOpaque()
        options.set(CURLOPT_PRIVATE, pointer: UnsafeMutableRawPointer(bitPattern: UInt(connection.id)))
        options.set(CURLOPT_URL, request.url.absoluteString)
        options.set(CURLOPT_PROTOCOLS_STR, "http,https,ftp,ftps")
        options.set(CURLOPT_NOSIGNAL, 1)
        options.set(CURLOPT_BUFFERSIZE, bufferSize)
        options.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        options.set(
            CURLOPT_WRITEFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receivedBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_WRITEDATA, pointer: me)
        options.set(
            CURLOPT_HEADERFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receivedHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_HEADERDATA, pointer: me)
        if request.ownsConnection {
            // HTTP/1.1 cannot multiplex: this load gets a connection of its own.
            options.set(CURLOPT_HTTP_VERSION, haul_http_version_1_1)
        } else {
            options.set(CURLOPT_HTTP_VERSION, haul_http_version_2tls)
            // Over TLS, wait for a connection being set up to the same host to say (by ALPN)
            // whether it multiplexes (HTTP/2) rather than open another: many small loads then
            // share one connection. Not over plain HTTP: there libcurl learns nothing until the
            // first transfer ends, and would hold the second one back behind it.
            if scheme == "https" { options.set(CURLOPT_PIPEWAIT, 1) }
        }
        options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        let timeout = max(request.timeoutInterval, 0.001)
        options.set(CURLOPT_CONNECTTIMEOUT_MS, Int(max(request.connectTimeout ?? timeout, 0.001) * 1000))
        options.set(CURLOPT_LOW_SPEED_LIMIT, Int(max(request.lowestSpeed ?? 1, 1)))
        options.set(CURLOPT_LOW_SPEED_TIME, Int(timeout.rounded(.up)))
        options.set(CURLOPT_USERAGENT, request.userAgent)
        if request.acceptsEncodedContent { options.set(CURLOPT_ACCEPT_ENCODING, "") }
        if let range = request.byteRange { options.set(CURLOPT_RANGE, range.curlValue) }
        options.set(CURLOPT_SSL_VERIFYPEER, request.tls.verifyPeer ? 1 : 0)
        options.set(CURLOPT_SSL_VERIFYHOST, request.tls.verifyPeer ? 2 : 0)
        if let caFile = request.tls.caFile { options.set(CURLOPT_CAINFO, caFile) }
        if let proxy = request.proxies.proxy(for: request.url) { options.set(CURLOPT_PROXY, proxy) }
        if let bypass = request.proxies.bypass { options.set(CURLOPT_NOPROXY, bypass) }
        if let credentials = request.credentials {
            options.set(CURLOPT_USERNAME, credentials.user)
            options.set(CURLOPT_PASSWORD, credentials.password)
            options.set(CURLOPT_HTTPAUTH, haul_auth_basic_or_digest)
        }
        if let credentials = request.proxyCredentials {
            options.set(CURLOPT_PROXYUSERNAME, credentials.user)
            options.set(CURLOPT_PROXYPASSWORD, credentials.password)
            options.set(CURLOPT_PROXYAUTH, haul_auth_basic_or_digest)
        }
        share?.attach(&options)
        try configureMethodAndBody(&options, context: me)
        headerList = options.setHeaders(headerLines())
        try options.check(url: request.url)
    }

    private func configureMethodAndBody(
        _ options: inout EasyOptions, context: UnsafeMutableRawPointer
    ) throws(ConnectionError) {
        let method = request.method.uppercased()
        upload = nil
        guard let body = request.body else {
            switch method {
            case "GET": options.set(CURLOPT_HTTPGET, 1)
            case "HEAD": options.set(CURLOPT_NOBODY, 1)
            default: options.set(CURLOPT_CUSTOMREQUEST, method)
            }
            return
        }
        guard let source = UploadSource(body) else {
            throw ConnectionError(kind: .bodyStream, url: request.url, detail: "no body stream was given")
        }
        upload = source
        options.set(CURLOPT_POST, 1)
        options.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: body.length ?? -1)
        options.set(
            CURLOPT_READFUNCTION,
            callback: { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            })
        options.set(CURLOPT_READDATA, pointer: context)
        // libcurl rewinds the body to send it again on the same hop (an authentication
        // retry, a reused connection that was lost): a fresh stream stands in for the rewind.
        options.set(seekCallback: { context, offset, origin in
            guard let context else { return haul_seekfunc_fail }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.rewindBody(to: Int64(offset), origin: origin)
        })
        options.set(CURLOPT_SEEKDATA, pointer: context)
        if method != "POST" { options.set(CURLOPT_CUSTOMREQUEST, method) }
    }

    /// The request's header lines, plus what the cache policy and the body call for.
    private func headerLines() -> [String] {
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if request.body != nil {
            lines.append("Expect:")
            if request.body?.length == nil { lines.append("Transfer-Encoding: chunked") }
        }
        if request.cachePolicy == .reloadIgnoringCache {
            lines.append("Cache-Control: no-cache")
            lines.append("Pragma: no-cache")
        }
        return lines
    }

    private func freeHeaderList() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }
}

extension URL {
    var isHTTP: Bool {
        let scheme = scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }
}
