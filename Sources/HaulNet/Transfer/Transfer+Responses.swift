import CCurl
import Foundation

// MARK: - Responses

/// The response a hop ends with: delivered to the delegate, synthesized when libcurl gave
/// none, or an authentication challenge asked about. Engine thread.
extension Transfer {

    /// Asks the delegate what to do with `response`'s body, unless the connection presumes the
    /// answer (then the delegate is told, and the body goes on at once). `hopDone`: libcurl has
    /// ended the hop already.
    func deliverFinalResponse(_ response: Response, hopDone: Bool = false) {
        self.response = response
        phase = .awaitingDisposition(hopDone: hopDone)
        if multipart == nil, let presumed = connection.presumedDisposition?(response) {
            // A `.cancel` from the delegate cancels the connection itself (`present`).
            connection.engineDeliverResponse(response) { _ in }
            dispositionDecided(presumed)
            return
        }
        let id = connection.id, engine = connection.engine
        connection.engineDeliverResponse(response) { disposition in
            engine.submit(.disposition(id, disposition))
        }
    }

    /// The response of a load that had no HTTP head, with the length libcurl knows. Over FTP (and
    /// SFTP) it
    /// reads as an HTTP server's would: a 200, or a 206 with `Content-Range` when the request
    /// asked for a range (libcurl sent `REST`, and fails the load when the server refuses it);
    /// `Accept-Ranges`, since every FTP server haul speaks to takes `REST`; the `MDTM` time as
    /// `Last-Modified`, the validator a resume must match. Other loads: status 0.
    func synthesizedResponse() -> Response {
        var length: curl_off_t = -1
        if let easy { haul_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) }
        var headers = HTTPHeaders()
        if length >= 0 { headers.add("Content-Length", String(length)) }
        guard request.url.isFileTransfer, let scheme = request.url.scheme else {
            return Response(url: request.url, statusCode: 0, reasonPhrase: "OK", httpVersion: "", headers: headers)
        }
        headers.add("Accept-Ranges", "bytes")
        var modified: curl_off_t = -1
        if let easy { haul_easy_getinfo_off_t(easy, CURLINFO_FILETIME_T, &modified) }
        if modified >= 0 {
            headers.add("Last-Modified", HTTPDate.format(Date(timeIntervalSince1970: Double(modified))))
        }
        guard let range = request.byteRange, length >= 0 else {
            return Response(
                url: request.url, statusCode: 200, reasonPhrase: "OK", httpVersion: scheme.uppercased(),
                headers: headers)
        }
        let last = range.lowerBound + Int64(length) - 1
        // Open-ended, the rest of the file: its length is known. A segment's end is not the file's.
        let total = range.upperBound == nil ? String(last + 1) : "*"
        headers.add("Content-Range", "bytes \(range.lowerBound)-\(last)/\(total)")
        return Response(
            url: request.url, statusCode: 206, reasonPhrase: "Partial Content", httpVersion: scheme.uppercased(),
            headers: headers)
    }

    /// The challenge `response` carries, if it is a 401 or 407 with one.
    func authenticationChallenge(in response: Response) -> AuthenticationChallenge? {
        let proxy = response.statusCode == 407
        return AuthenticationChallenge(
            response: response,
            previousFailureCount: proxy ? refusedCredentials.proxy : refusedCredentials.server,
            proposedCredential: proxy ? request.proxyCredentials : request.credentials)
    }

    /// Whether libcurl sends the request again with credentials for `challenge`, the hop's
    /// first: a Basic or Digest challenge (libcurl sends none before it is asked) when the
    /// request has credentials for it.
    func libcurlAnswers(_ challenge: AuthenticationChallenge) -> Bool {
        challenge.proposedCredential != nil && challenge.offersBasicOrDigest
    }

    /// A challenge libcurl did not answer, its body held: the delegate decides.
    func askChallenge(_ response: Response) {
        guard let challenge = authenticationChallenge(in: response) else { return }
        phase = .awaitingChallenge(response)
        let id = connection.id, engine = connection.engine
        connection.engineAskChallenge(challenge) { decision in
            engine.submit(.challengeDecision(id, decision))
        }
    }
}
