import CCurl
import Foundation

// MARK: - Transfer

/// The engine thread's side of one `Connection`: its easy handle, the hop in progress, the
/// response being parsed, and where the body goes. Used on the engine thread only; libcurl
/// calls its callbacks from inside `curl_multi_perform` on that thread.
final class Transfer {
    enum Phase {
        /// Waiting for the final response of this hop. `answered`: a 401 or 407 whose Basic or
        /// Digest challenge libcurl answers with the request's credentials by sending the
        /// request again (the answer to that is the response), kept in case libcurl does not
        /// ask again after all.
        case headers(answered: Response?)
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
        /// `hopDone`: libcurl has ended the hop already (the body is all held, or there is none).
        case awaitingDisposition(hopDone: Bool)
        case deliver
        /// Splitting a `multipart/x-mixed-replace` body: each part is delivered as a response
        /// followed by its data.
        case multipart(hopDone: Bool)
        /// Into the file; the hop ends well when the sink reaches its target's end (a segment's
        /// limit), even though libcurl reports the stopped write as an error.
        case download(FileSink)
        /// A callback failed (a write, the head's size, a body stream): libcurl ends the hop, and
        /// the load fails with this.
        case failing(ConnectionError)
        case ended
    }

    /// Where the easy handle stands with libcurl's multi handle.
    enum Handle {
        /// Not on the multi handle: the hop has not begun or libcurl has ended it.
        case detached
        case receiving
        /// Paused for the delegate (a disposition, backpressure) or a speed cap.
        case paused
    }

    /// A redirect's or challenge's body larger than this fails the load (they carry a short note).
    static let redirectBodyLimit = 1 << 20
    /// Response headers larger than this (all lines of one response) fail the load.
    static let headLimit = 256 * 1024

    let connection: Connection
    let multi: UnsafeMutableRawPointer
    /// The connections to hosts known to multiplex; `multi` is theirs when this transfer is one
    /// of their streams (`inPool`).
    let pool: StreamPool
    var inPool: Bool { multi == pool.multi.pointer }
    var easy: UnsafeMutableRawPointer?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var request: Request
    /// Whether this hop speaks HTTP (its header lines are read), worked out as it is set up
    /// rather than for each header line.
    var hopIsHTTP = false
    /// An ftp:// or ftps:// hop's replies, checked for the size they give; nil for other hops.
    var ftpSize: FTPSizeCheck?
    var phase = Phase.headers(answered: nil)
    var handle = Handle.detached
    var head = ResponseHead()
    /// Whether the delegate was told this hop's connection speaks HTTP/2 (`multiplexes`).
    var multiplexingTold = false
    /// Bytes of header lines this hop has received.
    var headBytes = 0
    var response: Response?
    var hops = 0
    /// Whether the easy handle has carried a hop of this transfer: a later hop (a redirect, a
    /// login) starts from a reset, while the first takes it as the pool gives it, reset already
    /// or new (a second reset is a cost on every transfer).
    var handleCarriedHop = false
    var heldBody: [UInt8] = []
    /// The parts of a `multipart/x-mixed-replace` body, and the response that announced them.
    var multipart: MultipartReplaceParser?
    var multipartResponse: Response?
    /// The file the current part is written to, when the delegate made a part a download: each
    /// part replaces the one before, so the file ends as the last part.
    var partSink: FileSink?
    /// Credentials sent (by libcurl, from the request) and refused, for the server and the proxy.
    var refusedCredentials = (server: 0, proxy: 0)
    var headerList: UnsafeMutablePointer<curl_slist>?
    var upload: UploadSource?
    var limiter: TokenBucket?
    let overallLimit: SharedLimit
    /// What this transfer shares with the engine's others (TLS sessions, DNS, cookies if on).
    let share: ShareHandle?
    /// Where the easy handle came from and goes back to.
    let handles: EasyHandlePool
    /// Whether libcurl ended the last hop with success: only such a handle is kept for reuse.
    private var lastHopSucceeded = false
    /// When a transfer paused by its speed cap may receive again (CLOCK_MONOTONIC ns).
    var resumeAt: UInt64?

    init(
        connection: Connection, multi: UnsafeMutableRawPointer, pool: StreamPool, handles: EasyHandlePool,
        overallLimit: SharedLimit, share: ShareHandle?
    ) {
        self.connection = connection
        self.handles = handles
        self.overallLimit = overallLimit
        self.share = share
        // The current request: the original one, with any speed cap set before the start.
        request = connection.currentRequest
        self.pool = pool
        self.multi = pool.takes(request) ? pool.multi.pointer : multi
        limiter = request.maxReceiveSpeed.map { TokenBucket(rate: $0) }
        easy = handles.take()
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

    func startHop() {
        phase = .headers(answered: nil)
        head = ResponseHead()
        multiplexingTold = false
        headBytes = 0
        heldBody = []
        multipart = nil
        multipartResponse = nil
        partSink = nil
        do {
            try configure()
        } catch {
            fail(error)
            return
        }
        guard let easy, haul_curl_multi_add_handle(multi, easy) == CURLM_OK else {
            fail(ConnectionError(kind: .transport, url: request.url, detail: "libcurl refused the transfer"))
            return
        }
        handle = .receiving
    }

    /// Releases the easy handle and the file, without telling the delegate anything.
    func close() {
        EngineThread.precondition()
        detach()
        if let easy { handles.give(easy, reusable: lastHopSucceeded) }
        easy = nil
        freeHeaderList()
    }

    func fail(_ error: ConnectionError) {
        connection.engineFail(error)
        detach()
    }

    func finish() {
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
    func detach() {
        takeOffMulti()
        if case .download(let sink) = phase { sink.close() }
        partSink?.close()
        overallLimit.leave(connection.id)
        phase = .ended
    }

    /// Takes the easy handle off the multi handle, if it is on it.
    func takeOffMulti() {
        if let easy, handle != .detached { haul_curl_multi_remove_handle(multi, easy) }
        handle = .detached
    }

    /// A callback failed: the file is closed now, and the load fails with `error` when libcurl
    /// ends the hop (the callback's return value makes it).
    func failWhenHopEnds(_ error: ConnectionError) {
        if case .download(let sink) = phase { sink.close() }
        phase = .failing(error)
    }

    /// Whether libcurl has ended the hop while the delegate decides (or a multipart body is cut
    /// into parts).
    var hopDone: Bool {
        switch phase {
        case .awaitingDisposition(let done), .multipart(let done): done
        default: false
        }
    }

    // MARK: - Commands from other threads

    /// libcurl reports this hop's transfer done with `result`.
    func hopCompleted(_ result: CURLcode) {
        EngineThread.precondition()
        takeOffMulti()
        lastHopSucceeded = result == CURLE_OK
        if case .failing(let error) = phase {
            fail(error)
            return
        }
        if case .download(let sink) = phase, sink.reachedEnd {
            // Stopped at the segment's end on purpose: a success whatever libcurl says of it.
            finish()
            return
        }
        guard result == CURLE_OK else {
            var error = ConnectionError(
                curlCode: result, errorBuffer: String(cString: errorBuffer), url: request.url,
                proxy: request.proxies.proxyUsed(for: request.url))
            if case .headers(nil) = phase {
                error.isRefusal = [CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING]
                    .contains(result)
            }
            fail(error)
            return
        }
        switch phase {
        case .headers(let answered):
            // No HTTP head was seen (ftp, or a body-less answer): the response is what libcurl knows.
            deliverFinalResponse(answered ?? synthesizedResponse(), hopDone: true)
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
            phase = .awaitingDisposition(hopDone: true)
            multipart?.end()
        case .multipart:
            phase = .multipart(hopDone: true)
            multipart?.end()
            continueMultipart()
        case .deliver, .download:
            finish()
        case .awaitingRedirect, .awaitingChallenge, .failing, .ended:
            break
        }
    }

    /// The delegate answered `willSend`: follow `next`, or (nil) take the redirect as final.
    func redirectDecided(_ next: Request?) {
        EngineThread.precondition()
        guard case .awaitingRedirect(let response) = phase else { return }
        guard let next else {
            deliverFinalResponse(response, hopDone: true)
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
            deliverFinalResponse(response, hopDone: true)
        case .cancel:
            fail(ConnectionError(kind: .authenticationCancelled, url: request.url))
        }
    }

    /// The delegate answered `didReceive(response)`.
    func dispositionDecided(_ disposition: ResponseDisposition) {
        EngineThread.precondition()
        guard case .awaitingDisposition(let hopDone) = phase else { return }
        if multipart != nil {
            partDispositionDecided(disposition, hopDone: hopDone)
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
                phase = .download(
                    try FileSink(
                        target: target, url: request.url, expectedLength: response?.expectedContentLength ?? -1))
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
                if case .failing(let error) = phase {
                    fail(error)
                } else {
                    fail(ConnectionError(kind: .transport, url: request.url, detail: "body not accepted"))
                }
                return
            }
        }
        if hopDone {
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
        guard handle == .paused, let easy else { return }
        handle = .receiving
        resumeAt = nil
        // Unpausing hands over what libcurl held back, here and now. When the write callback
        // refuses it (a steal moved the segment's end while it waited on a cap; the file
        // failed), libcurl returns the error here and offers the same bytes at each unpause:
        // the transfer ends now, as a completed hop would.
        let result = haul_curl_easy_pause(easy, Int32(haul_curlpause_cont))
        if result != CURLE_OK { hopCompleted(result) }
    }

    /// Ends the body at file offset `end` (only ever earlier): another connection takes the
    /// rest. A body already there ends now, successfully.
    func limitDownload(to end: Int64) {
        EngineThread.precondition()
        guard case .download(let sink) = phase else { return }
        sink.limit(to: end)
        guard sink.reachedEnd else { return }
        takeOffMulti()
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
}
