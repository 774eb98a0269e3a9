import CCurl
import Foundation

// MARK: - Body

/// The body: received into the delegate's data or a file (`FileSink`), paused and resumed
/// with the delivery, ended at a segment's limit; an upload read and rewound. Engine thread.
extension Transfer {
    /// Pauses receiving from inside or outside libcurl's callbacks (a no-op once the hop ended).
    func pauseReceiving() {
        guard handle == .receiving, let easy else { return }
        handle = .paused
        haul_curl_easy_pause(easy, Int32(haul_curlpause_recv))
    }

    /// Body bytes, from CURLOPT_WRITEFUNCTION. Returns the count taken, 0 to abort, or the
    /// pause value.
    func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        EngineThread.precondition()
        if case .headers(let answered) = phase {
            deliverFinalResponse(answered ?? synthesizedResponse())
        }
        switch phase {
        case .redirectBody, .challengeBody:
            guard heldBody.count + bytes.count <= Transfer.redirectBodyLimit else {
                failWhenHopEnds(
                    ConnectionError(kind: .transport, url: request.url, detail: "redirect or challenge body over 1 MiB")
                )
                return 0
            }
            heldBody.append(contentsOf: bytes)
            return bytes.count
        case .awaitingDisposition:
            handle = .paused
            return haul_writefunc_pause
        case .multipart:
            multipart?.feed(bytes)
            if !pumpMultipart() {
                // A failed write ends the hop; libcurl reports it, and the phase says why.
                if case .failing = phase { return 0 }
                pauseReceiving()
            }
            return bytes.count
        case .failing:
            return 0
        default:
            return consume(bytes)
        }
    }

    /// Hands body bytes on, unless this transfer's cap or the engine-wide cap says to wait.
    func consume(_ bytes: UnsafeRawBufferPointer) -> Int {
        if limiter != nil || overallLimit.isSet {
            let now = MonotonicClock.nanoseconds()
            // The longer of the two waits, without building an array on every write callback.
            let own = limiter?.delay(for: bytes.count, now: now)
            let shared = overallLimit.delay(for: connection.id, count: bytes.count, now: now)
            if let wait = own.map({ max($0, shared ?? 0) }) ?? shared {
                // Held back by its own cap alone: the shared cap's turn goes to the next in line.
                if shared == nil { overallLimit.leave(connection.id) }
                resumeAt = now + wait
                handle = .paused
                return haul_writefunc_pause
            }
            limiter?.take(bytes.count)
            overallLimit.take(bytes.count, by: connection.id)
        }
        return sink(bytes)
    }

    /// Hands body bytes to the delegate or the file.
    func sink(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch phase {
        case .deliver:
            if connection.engineEnqueueData(bytes) { return bytes.count }
            handle = .paused
            return haul_writefunc_pause
        case .download(let sink):
            let room = sink.room
            do {
                let written = try sink.write(bytes, url: request.url)
                if written > 0 {
                    connection.engineReportWritten(written, expected: response?.expectedContentLength ?? -1)
                }
            } catch {
                failWhenHopEnds(error)
                return 0
            }
            // The segment is complete and the server would send more (a body running past it):
            // stop it here, not when the next bytes come, which a rate-capping server may
            // hold back for a while. libcurl ends it as a write error; the sink has reached its
            // end, so the hop ends well (`hopCompleted`).
            if let room, room < Int64(bytes.count) || (sink.reachedEnd && bodyRunsPast(sink)) {
                return 0
            }
            return bytes.count
        default:
            return 0
        }
    }

    /// Whether the response body goes on past where `sink` stops: the request asked for more
    /// than the segment (an open range, or a segment cut short by a steal).
    func bodyRunsPast(_ sink: FileSink) -> Bool {
        guard let end = sink.end else { return false }
        guard let last = request.byteRange?.upperBound else { return true }
        return last + 1 > end
    }

    /// Request-body bytes, from CURLOPT_READFUNCTION.
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        EngineThread.precondition()
        guard let upload else { return 0 }
        do {
            let count = try upload.read(into: buffer)
            if count > 0 { connection.engineReportSent(Int64(count), expected: request.body?.length ?? -1) }
            return count
        } catch {
            failWhenHopEnds(ConnectionError(kind: .bodyStream, url: request.url, detail: "\(error)"))
            return haul_readfunc_abort
        }
    }

    /// Starts the request body again, from CURLOPT_SEEKFUNCTION: only a rewind to the start is
    /// possible, and it takes a new stream from the body's provider (none fails the load).
    func rewindBody(to offset: Int64, origin: Int32) -> Int32 {
        EngineThread.precondition()
        guard offset == 0, origin == SEEK_SET, let body = request.body else { return haul_seekfunc_fail }
        guard let source = UploadSource(body) else {
            failWhenHopEnds(
                ConnectionError(
                    kind: .bodyStream, url: request.url,
                    detail: "no new body stream was given to send the body again"))
            return haul_seekfunc_fail
        }
        upload = source
        connection.engineResetSent()
        return haul_seekfunc_ok
    }
}
