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

    /// The response of a load that had no HTTP head: status 0 and the length libcurl knows.
    func synthesizedResponse() -> Response {
        var length: curl_off_t = -1
        if let easy { haul_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) }
        var headers = HTTPHeaders()
        if length >= 0 { headers.add("Content-Length", String(length)) }
        return Response(url: request.url, statusCode: 0, reasonPhrase: "OK", httpVersion: "", headers: headers)
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
