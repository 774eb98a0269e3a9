import Foundation
import HaulNet
import HaulTorrent

// MARK: - QueueInput

/// Everything that can change a `QueueCore`: the user's commands, what a connection reports,
/// the results of the effects the shell ran, and timers. Each is handled whole, in order.
enum QueueInput: Sendable {
    // MARK: Commands

    /// New downloads, at the end of the queue (restored ones as they were).
    case add([Download])
    case pause(GID)
    case resume(GID)
    case cancel(GID)
    case retry(GID)
    case authenticate(GID, user: String, password: String)
    case setMaxDownloadLimit(GID, Int64?)
    /// New options for a download, over its own (`QueueCore.changeOptions`).
    case changeOptions(GID, DownloadOptions)
    /// New options that change without a new attempt (`QueueCore.changeLiveOptions`).
    case changeLiveOptions(GID, DownloadOptions)
    /// A download's mirrors changed, by whom (`QueueCore.changeURIs`).
    case changeURIs(GID, removing: [String], adding: [String], at: Int?, by: OptionSource = .owner)
    /// How many downloads run at once, from now on.
    case setMaxConcurrentDownloads(Int)
    /// How many downloads from one origin run at once (0: no cap), from now on.
    case setMaxConnectionsPerHost(Int)
    case move(GID, DownloadQueue.Move)
    case remove([GID])

    // MARK: Connection messages

    /// A connection's hop goes over a connection that agreed on HTTP/2: the host (of the hop's
    /// URL) takes further downloads as streams.
    case multiplexing(ConnectionID, hostKey: String)
    /// A connection's response, with what the shell knows beside it.
    case responded(ConnectionID, ResponseFacts)
    /// Bytes written so far by a connection (its body, from its first byte).
    case wrote(ConnectionID, totalBytesWritten: Int64)
    /// A connection's body is complete in the partial file at `path`.
    case bodyDone(ConnectionID, path: String)
    /// A connection ended well.
    case finished(ConnectionID)
    case failed(ConnectionID, ConnectionError)

    // MARK: Results of effects

    /// What `QueueEffect.reserveName` found: the name, and whether the partial file still holds
    /// the bytes a resumed body continues from; `unnamed`: no partial file was made, the body
    /// goes to a file with no name under that name.
    case named(NameRequest, Result<String, DownloadFailure>, holdsOffset: Bool, unnamed: Bool)
    /// A body of unknown length grew past the limit of a file with no name: the file is now the
    /// partial file at `path`, recorded in the store.
    case spilled(ConnectionID, path: String)
    /// What `QueueEffect.finishFile` gave: the file's final path, or why it has none.
    case fileFinished(ConnectionID, downloadID: GID, Result<String, DownloadFailure>)
    /// What `QueueEffect.checkWhole` found: nil when the partial file is not whole after all.
    case wholeChecked(downloadID: GID, Result<String, DownloadFailure>?)
    /// What `QueueEffect.verifyPieces` found: the pieces whose hash is not theirs.
    case piecesVerified(downloadID: GID, bad: [Range<Int64>], mirror: Int)
    /// What `QueueEffect.followMetalink` found: the downloads of the Metalink's files, or why
    /// there are none.
    case metalinkFollowed(downloadID: GID, Result<[Download], DownloadFailure>)

    // MARK: Torrents

    /// What `QueueEffect.startTorrent` gave: the files' names when the metadata is known, or why
    /// the torrent could not be added.
    case torrentStarted(GID, Result<TorrentNaming?, DownloadFailure>)
    /// A magnet link's metadata came, and its files' names passed the gate.
    case torrentNamed(GID, TorrentNaming)
    /// A torrent's status, about once a second while it changes.
    case torrentReported(GID, TorrentStatus)
    /// A torrent stopped on an error (its files' names refused, a disk error).
    case torrentFailed(GID, DownloadFailure)

    // MARK: Timers

    case timerFired(QueueTimer)
}

/// What the shell learned with a connection's response, besides the response.
struct ResponseFacts: Sendable {
    let response: Response
    /// The request that got the response (after redirects).
    let currentRequest: Request
    /// The URLs that redirected on the way (redacted).
    let redirects: [String]
    /// The last 401 or 407 challenge, to say why a login failed.
    let challenge: AuthenticationChallenge?
    /// The existing file a conditional request asked about, and its size when the answer is a
    /// 304.
    let conditionalFile: String?
    let unchangedSize: Int64?
    /// The engine sent the body to a file with no name already (`PlannedConnection.presumedUnnamed`).
    let presumed: Bool

    init(
        _ response: Response, currentRequest: Request, redirects: [String] = [],
        challenge: AuthenticationChallenge? = nil, conditionalFile: String? = nil, unchangedSize: Int64? = nil,
        presumed: Bool = false
    ) {
        self.response = response
        self.currentRequest = currentRequest
        self.redirects = redirects
        self.challenge = challenge
        self.conditionalFile = conditionalFile
        self.unchangedSize = unchangedSize
        self.presumed = presumed
    }
}

/// A timer the core set (`QueueEffect.schedule`).
enum QueueTimer: Sendable, Hashable {
    /// A failed download's wait is over.
    case retry(GID)
    /// The once-a-second check that shows an idle download's speed as 0.
    case settleSpeeds
    /// The periodic check of a split download's connections for laggards.
    case checkLaggards(GID)
    /// The end of an automatically split download's measuring window (`SplitGrowth`).
    case measureGrowth(GID)
    /// The end of a refusing host's hold (`HostRefusals`).
    case hostHoldOver(String)
}

/// Where a torrent's files go, once its metadata is known and their names passed the gate.
struct TorrentNaming: Sendable, Equatable {
    /// The torrent's file (one file) or folder (several), under the download's directory.
    let destination: String
    /// Bytes of the files wanted (`select-file`).
    let wanted: Int64
}
