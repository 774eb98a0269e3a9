import CCurl
import Foundation

// MARK: - libcurl callbacks

/// What libcurl calls while a hop runs: header lines, and the head's end. Engine thread.
extension Transfer {

    /// One header line (CRLF included), from CURLOPT_HEADERFUNCTION.
    func receivedHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        EngineThread.precondition()
        if ftpSize != nil,
            let problem = ftpSize?.read(String(decoding: ResponseHead.withoutLineEnd(bytes), as: UTF8.self))
        {
            failWhenHopEnds(ConnectionError(kind: .badResponse, url: request.url, detail: problem))
            return 0
        }
        guard case .headers = phase, hopIsHTTP else { return bytes.count }
        headBytes += bytes.count
        guard headBytes <= Transfer.headLimit else {
            failWhenHopEnds(
                ConnectionError(
                    kind: .badResponse, url: request.url,
                    detail: "its headers are larger than \(Transfer.headLimit / 1024) KiB"))
            return 0
        }
        let line = ResponseHead.withoutLineEnd(bytes)
        if ResponseHead.isStatusLine(line) {
            head.begin(statusLine: line)
        } else if line.isEmpty {
            headEnded()
        } else {
            head.add(headerLine: line)
        }
        return bytes.count
    }

    /// The hop's connection is up and its request about to go (CURLOPT_PREREQFUNCTION): its
    /// TLS may have agreed on HTTP/2 a round trip before a response says so.
    func connected() {
        guard let easy, haul_easy_negotiated_h2(easy) else { return }
        multiplexes()
    }

    /// The hop's connection speaks HTTP/2 (its TLS agreed on it, or its response says so; libcurl
    /// before 7.80 tells only the latter): the one place the engine learns it. The host's later
    /// transfers become streams of the pool, and the delegate is told, once a hop, so more
    /// downloads may start. A transfer in the pool is on such a connection already.
    func multiplexes() {
        guard !inPool, !multiplexingTold else { return }
        multiplexingTold = true
        pool.learnMultiplexing(of: request.url)
        connection.engineReportMultiplexing(request.url)
    }

    func headEnded() {
        guard let status = head.statusCode, status >= 200, case .headers(let answered) = phase else { return }
        let response = head.response(url: request.url)
        if response.httpVersion == "HTTP/2" { multiplexes() }
        if let demand = authenticationChallenge(in: response) {
            if answered == nil, libcurlAnswers(demand) {
                phase = .headers(answered: response)
                return
            }
            // Credentials libcurl sent in answer to the challenge before this one were refused;
            // a first challenge in a scheme libcurl cannot answer never saw them.
            if demand.proposedCredential != nil, answered != nil {
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
            phase = .multipart(hopDone: false)
        } else {
            deliverFinalResponse(response)
        }
    }
}
