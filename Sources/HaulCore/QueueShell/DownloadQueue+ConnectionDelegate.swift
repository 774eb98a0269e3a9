import Foundation
import HaulNet
import HaulText

// MARK: - Connection messages

/// The queue as the delegate of its `DownloadConnection`s: every message runs on
/// `callbackQueue`, becomes a `QueueInput`, and its effects run before the message returns. The
/// core ignores a message from a connection it no longer tracks (paused, cancelled, replaced).
extension DownloadQueue {
    public func connection(_ connection: Connection, willSend request: Request, redirectResponse: Response?) -> Request?
    {
        if let redirectResponse, let connection = connection as? DownloadConnection {
            connection.redirects.withLock { $0.append(redirectResponse.url.redactedString) }
        }
        return request
    }

    public func connection(_ connection: Connection, didNegotiateMultiplexingWith url: URL) {
        guard let connection = connection as? DownloadConnection else { return }
        handle(.multiplexing(connection.plan.id, hostKey: QueueCore.hostKey(url.absoluteString)))
    }

    public func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        guard let connection = connection as? DownloadConnection else { return .cancel }
        let id = connection.plan.id
        // A 304 to a conditional request: the size of the file kept.
        let unchanged = response.statusCode == 304 ? connection.conditionalFile.map(DownloadQueue.size(of:)) : nil
        let presumed = connection.presumer?.answered == true
        handle(
            .responded(
                id,
                ResponseFacts(
                    response, currentRequest: connection.currentRequest,
                    redirects: connection.redirects.withLock { $0 }, challenge: connection.challenge.withLock { $0 },
                    conditionalFile: connection.conditionalFile, unchangedSize: unchanged, presumed: presumed)))
        // A presumed answer stands unless the core cancels it.
        return running.withLock { $0.answers.removeValue(forKey: id) } ?? (presumed ? .allow : .cancel)
    }

    /// A challenge the request's credentials did not answer: kept to say why the login failed;
    /// the 401 or 407 itself becomes the response.
    ///
    /// - Parameters:
    ///   - connection: The download's connection.
    ///   - challenge: The challenge, kept for the failure's message.
    /// - Returns: `.performDefaultHandling`: the queue answers no challenge itself.
    public func connection(
        _ connection: Connection,
        didReceive challenge: AuthenticationChallenge
    ) -> ChallengeDisposition {
        (connection as? DownloadConnection)?.challenge.withLock { $0 = challenge }
        return .performDefaultHandling
    }

    public func connection(
        _ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        guard let connection = connection as? DownloadConnection else { return }
        handle(.wrote(connection.plan.id, totalBytesWritten: totalBytesWritten))
    }

    public func connection(_ connection: Connection, didFinishDownloadingTo path: String) {
        guard let connection = connection as? DownloadConnection else { return }
        handle(.bodyDone(connection.plan.id, path: path))
    }

    public func connectionDidFinishLoading(_ connection: Connection) {
        guard let connection = connection as? DownloadConnection else { return }
        _ = running.withLock { $0.connections.removeValue(forKey: connection.plan.id) }
        handle(.finished(connection.plan.id))
    }

    public func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        guard let connection = connection as? DownloadConnection else { return }
        _ = running.withLock { $0.connections.removeValue(forKey: connection.plan.id) }
        handle(.failed(connection.plan.id, error))
    }

    /// A connection's message: the core decides, and the effects run before the message returns.
    private func handle(_ input: QueueInput) {
        send(input)
        runEffects()
    }
}
