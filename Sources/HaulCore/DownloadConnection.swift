import HaulNet
import Synchronization

// MARK: - DownloadConnection

/// One attempt of one download (the design card's "connection subclass holding its blocks,
/// buffer and response"): which download it serves, the byte it asked to resume from and the
/// validator that data was read under. Its body streams to the partial file on the engine
/// thread through `FileSink`'s bounded buffer; its response and progress reach the
/// `DownloadQueue`, its delegate. Every stored property is a constant or behind a lock.
final class DownloadConnection: Connection, @unchecked Sendable {
    let downloadID: String
    /// The host the per-host cap counts this connection against.
    let hostKey: String
    /// The first byte asked for (0 for the whole file).
    let resumeOffset: Int64
    /// The validator the partial data was read under, when resuming.
    let expectedValidator: String?
    /// The whole file's length the partial data belongs to, when resuming and it is known: a
    /// ranged answer for a file of another length is another file.
    let expectedTotal: Int64?
    /// One of the extra connections of a split download, fetching a closed range.
    let isHelper: Bool
    /// The existing file a conditional request asked about (`conditional-get`): a 304 keeps
    /// it, a 200 replaces it.
    let conditionalFile: String?
    /// The URLs that redirected so far (redacted), for the download's `ResponseSummary`.
    let redirects = Mutex<[String]>([])
    /// The last 401 or 407 challenge the server sent, to say why a login failed.
    let challenge = Mutex<AuthenticationChallenge?>(nil)

    init(
        request: Request, downloadID: String, hostKey: String, resumeOffset: Int64, expectedValidator: String?,
        expectedTotal: Int64? = nil, isHelper: Bool = false, conditionalFile: String? = nil, queue: DownloadQueue,
        callbackQueue: any DelegateQueue, engine: ConnectionEngine
    ) {
        self.downloadID = downloadID
        self.hostKey = hostKey
        self.resumeOffset = resumeOffset
        self.expectedValidator = expectedValidator
        self.expectedTotal = expectedTotal
        self.isHelper = isHelper
        self.conditionalFile = conditionalFile
        super.init(request: request, delegate: queue, queue: callbackQueue, engine: engine)
    }
}
