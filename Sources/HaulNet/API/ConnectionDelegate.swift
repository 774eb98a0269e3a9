import Foundation

// MARK: - ConnectionDelegate

/// What a `Connection` tells the object that started it, in this order (docs/connection-contract.md,
/// each rule tested in `Tests/HaulNetTests`):
///
/// 1. zero or more `willSend(_:redirectResponse:)`, and for each hop over TLS that agreed on
///    HTTP/2 one `didNegotiateMultiplexingWith(_:)` before its response;
/// 2. zero or more `didReceive(_: AuthenticationChallenge)` when the server (or a proxy) asks
///    for credentials, each answered with a `ChallengeDisposition`;
/// 3. zero or more `didReceive(_: Response)`, each answered with a `ResponseDisposition`;
/// 4. zero or more `didReceive(_: Data)` (or, for a download, `didWriteData` progress);
/// 5. for a connection with a `ResponseCache`, at most one `willCacheResponse`, after the data;
/// 6. exactly one of `connectionDidFinishLoading` or `didFailWithError`, unless cancelled.
///
/// Upload progress (`didSendBodyData`) comes while the body is sent.
///
/// **Threading:** every method runs on the `DelegateQueue` given when the connection was
/// created, one at a time and in order, never on the engine thread. After `cancel()` returns,
/// no method is called again for that connection. Every method has a default implementation,
/// so a delegate implements only what it needs.
public protocol ConnectionDelegate: AnyObject, Sendable {
    /// The connection is about to follow a redirect (`redirectResponse` is the 3xx). Return the
    /// request to send (as given, or changed), or nil to refuse: the redirect response is then
    /// delivered as the final response, with its body. Default: follow.
    ///
    /// - Parameters:
    ///   - connection: The connection that is redirected.
    ///   - request: The request for the `Location`, with the method and body the status calls for.
    ///   - redirectResponse: The 3xx response whose `Location` led to `request`.
    /// - Returns: The request to send next, or nil to stop at `redirectResponse`.
    func connection(_ connection: Connection, willSend request: Request, redirectResponse: Response?) -> Request?

    /// The connection that carries the request to `url` (this hop's) agreed on HTTP/2 as its
    /// TLS handshake ended (with libcurl before 7.80, as its response began): later loads to that
    /// host may go out as further streams. Comes before that hop's response, at most once a hop;
    /// not for connections without TLS, nor for a load that went out as such a stream. Default:
    /// nothing.
    ///
    /// - Parameters:
    ///   - connection: The connection whose hop negotiated HTTP/2.
    ///   - url: The hop's URL (the host that multiplexes).
    func connection(_ connection: Connection, didNegotiateMultiplexingWith url: URL)

    /// The server answered 401 (or a proxy 407) with a challenge the request's own credentials,
    /// if it had any, did not meet. Nothing of that response has been delivered. Default:
    /// `.performDefaultHandling` (the 401 or 407 becomes the final response).
    ///
    /// - Parameters:
    ///   - connection: The connection that was challenged.
    ///   - challenge: The protection space, the failures so far and the credential proposed.
    /// - Returns: Whether to answer with a credential, go on without one, or cancel the load.
    func connection(_ connection: Connection, didReceive challenge: AuthenticationChallenge) -> ChallengeDisposition

    /// A final response arrived. Default: `.allow`.
    ///
    /// - Parameters:
    ///   - connection: The connection that received the response.
    ///   - response: The status line and headers; for a cached answer, the stored response.
    /// - Returns: Whether the body is delivered as data, written to a file, or not wanted.
    func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition

    /// The next bytes of the body: only the bytes since the previous call.
    ///
    /// - Parameters:
    ///   - connection: The connection whose body arrived.
    ///   - data: The bytes since the previous call, never empty.
    func connection(_ connection: Connection, didReceive data: Data)

    /// Request-body progress. `totalBytesExpectedToWrite` is -1 for a body of unknown length.
    ///
    /// - Parameters:
    ///   - connection: The connection sending a request body.
    ///   - bytesWritten: Bytes sent since the previous call.
    ///   - totalBytesWritten: Bytes of the body sent so far.
    ///   - totalBytesExpectedToWrite: The body's length, or -1.
    func connection(
        _ connection: Connection, didSendBodyData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64)

    /// Progress of a body that became a download: bytes written to its file since the previous
    /// call, in all, and expected (-1 when unknown).
    ///
    /// - Parameters:
    ///   - connection: The connection writing the download.
    ///   - bytesWritten: Bytes written since the previous call.
    ///   - totalBytesWritten: Bytes of this body written so far.
    ///   - totalBytesExpectedToWrite: The body's length, or -1 when the server did not say.
    func connection(
        _ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64)

    /// A download's body is complete in the file at `path`; `connectionDidFinishLoading` follows.
    ///
    /// - Parameters:
    ///   - connection: The connection that wrote the download.
    ///   - path: The file's path; for an unnamed file, the name it was given.
    func connection(_ connection: Connection, didFinishDownloadingTo path: String)

    /// The response just loaded may be stored in the connection's cache (see
    /// `ResponseCache.mayStore`). Return it, a changed copy, or nil to keep it out. Comes after
    /// the last data and before `connectionDidFinishLoading`, at most once. Default: as given.
    ///
    /// - Parameters:
    ///   - connection: The connection that loaded the response.
    ///   - cachedResponse: The response, its body and the request headers its `Vary` names.
    /// - Returns: What to store, or nil to store nothing.
    func connection(_ connection: Connection, willCacheResponse cachedResponse: CachedResponse) -> CachedResponse?

    /// The load ended successfully: the whole body was delivered (or written). The last message
    /// for this connection. Default: nothing.
    ///
    /// - Parameter connection: The connection that finished.
    func connectionDidFinishLoading(_ connection: Connection)

    /// The load failed; nothing more comes for this connection. Default: nothing.
    ///
    /// - Parameters:
    ///   - connection: The connection that failed.
    ///   - error: What failed, with libcurl's code and words where libcurl reported it.
    func connection(_ connection: Connection, didFailWithError error: ConnectionError)
}

extension ConnectionDelegate {
    public func connection(_ connection: Connection, willSend request: Request, redirectResponse: Response?) -> Request?
    {
        request
    }
    public func connection(
        _ connection: Connection, didReceive challenge: AuthenticationChallenge
    ) -> ChallengeDisposition {
        .performDefaultHandling
    }
    public func connection(_ connection: Connection, didNegotiateMultiplexingWith url: URL) {}
    public func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition { .allow }
    public func connection(_ connection: Connection, didReceive data: Data) {}
    public func connection(
        _ connection: Connection, didSendBodyData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {}
    public func connection(
        _ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {}
    public func connection(_ connection: Connection, didFinishDownloadingTo path: String) {}
    public func connection(
        _ connection: Connection, willCacheResponse cachedResponse: CachedResponse
    ) -> CachedResponse? {
        cachedResponse
    }
    public func connectionDidFinishLoading(_ connection: Connection) {}
    public func connection(_ connection: Connection, didFailWithError error: ConnectionError) {}
}

// MARK: - ResponseDisposition

/// How the delegate wants the body of a response handled.
public enum ResponseDisposition: Sendable, Equatable {
    /// Deliver the body through `didReceive(data:)`.
    case allow
    /// Stop the load; no further message arrives.
    case cancel
    /// Write the body to a file on the engine thread (no copies through the delegate queue);
    /// progress arrives as `didWriteData`, then `didFinishDownloadingTo`.
    case becomeDownload(DownloadTarget)
}

/// Where a download's body goes: a file, written from `offset` on with positioned writes.
public struct DownloadTarget: Sendable, Equatable {
    public var path: String
    /// The file offset of the body's first byte.
    public var offset: Int64
    /// The file offset where this body must stop (nil: where the body ends). Reaching it ends
    /// the load successfully: a segment of a file shared by several connections.
    public var end: Int64?
    /// Whether the file is left as long as it is at the end: other connections fill the rest.
    /// Otherwise the file is cut where the body ended, dropping what an older version had.
    public var keepsTail: Bool
    /// Whether the file must already exist (its owner made it): a body that arrives after the
    /// file was finished and renamed then fails instead of leaving a new, stray file.
    public var mustExist: Bool
    /// A file with no name instead of `path`, named when the body is complete (see
    /// `UnnamedFile`); the body starts at offset 0.
    public var unnamed: UnnamedFile?

    /// A body written to the file at `path` from `offset` on.
    ///
    /// - Parameters:
    ///   - path: The file to write; made when missing unless `mustExist`.
    ///   - offset: The file offset of the body's first byte.
    ///   - end: The file offset where the body must stop, or nil for its natural end.
    ///   - keepsTail: Whether bytes past the body's end stay (other connections fill them).
    ///   - mustExist: Whether a missing file fails the load rather than being made.
    public init(path: String, offset: Int64 = 0, end: Int64? = nil, keepsTail: Bool = false, mustExist: Bool = false) {
        self.path = path
        self.offset = offset
        self.end = end
        self.keepsTail = keepsTail
        self.mustExist = mustExist
    }

    /// A body written to a file with no name, named when it is complete.
    ///
    /// - Parameter unnamed: The directory's unnamed file that receives the body.
    public init(unnamed: UnnamedFile) {
        self.init(path: unnamed.directory)
        self.unnamed = unnamed
    }
}
