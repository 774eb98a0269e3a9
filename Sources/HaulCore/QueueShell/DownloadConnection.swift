import HaulNet
import Synchronization

// MARK: - DownloadConnection

/// One connection of a download, a `Connection` subclass holding its blocks, buffer and
/// response: it runs the `PlannedConnection` the queue's core decided on. Its body
/// streams to the partial file on the engine thread through `FileSink`'s bounded buffer; its
/// response and progress reach the `DownloadQueue`, its delegate. Every stored property is a
/// constant or behind a lock.
final class DownloadConnection: Connection, @unchecked Sendable {
    let plan: PlannedConnection
    /// The existing file a conditional request (`conditional-get`) asks about: a 304 keeps it,
    /// a 200 replaces it. Found when the connection is made, on `callbackQueue`.
    let conditionalFile: String?
    /// The URLs that redirected so far (redacted), for the download's `ResponseSummary`.
    let redirects = Mutex<[String]>([])
    /// The last 401 or 407 challenge the server sent, to say why a login failed.
    let challenge = Mutex<AuthenticationChallenge?>(nil)
    /// The connection's own answer to a plain 200, when the core allowed one.
    let presumer: UnnamedPresumer?

    /// Made on `callbackQueue`, outside the queue's lock: a conditional request looks at the
    /// disk for its file and that file's validators.
    init(
        plan: PlannedConnection, queue: DownloadQueue, callbackQueue: any DelegateQueue, engine: ConnectionEngine,
        presumer: UnnamedPresumer?
    ) {
        self.plan = plan
        self.presumer = presumer
        var request = plan.request
        conditionalFile = plan.conditionalLookup.flatMap(ConditionalGet.existingFile)
        if let conditionalFile {
            request.modify { fields in
                for header in ConditionalGet.headers(for: conditionalFile) {
                    fields.headers.set(header.name, header.value)
                }
            }
        }
        super.init(
            request: request, delegate: queue, queue: callbackQueue, engine: engine,
            presuming: presumer.map { own -> @Sendable (Response) -> ResponseDisposition? in { own.answer($0) } })
    }
}
