import Foundation
import HaulNet

// MARK: - QueueEffect

/// What a `QueueCore` asks the world to do. `DownloadQueue` runs each, in order, outside any
/// lock, and feeds the results of those that have one back as a `QueueInput`. The cases that
/// carry a download or a request are `indirect`: an effect is copied several times on its way,
/// and a box is copied with one retain.
enum QueueEffect: Sendable {
    /// Open a connection (conditional headers are found by the shell: they read the disk).
    indirect case start(PlannedConnection)
    case cancel(ConnectionID)
    /// Cap a connection's speed (bytes a second; nil lifts the cap).
    case limitSpeed(ConnectionID, Int64?)
    /// A running connection of a split download is to stop at this file offset.
    case stop(ConnectionID, atFileOffset: Int64)
    /// The reply to the connection's response (`ConnectionDelegate.didReceive(response)`).
    case answer(ConnectionID, ResponseDisposition)
    /// Tell the journal, then the queue's owner.
    indirect case emit(DownloadEvent)
    /// Choose and create the file an accepted body goes to; answers `QueueInput.named`.
    indirect case reserveName(NameRequest)
    /// Answer the connection's response: write the body to a file with no name, named when it
    /// is complete (see `UnnamedWrite`).
    indirect case writeUnnamed(ConnectionID, UnnamedWrite)
    /// Check the body's digest (if the download has a checksum) and give the file its final
    /// name (with the response's Last-Modified and ETag, as its options ask); answers
    /// `QueueInput.fileFinished`.
    indirect case finishFile(ConnectionID, Download, path: String, replacing: Bool, response: ResponseSummary?)
    /// Look at a partial file the store says is whole, then check and name it; answers
    /// `QueueInput.wholeChecked`.
    indirect case checkWhole(Download, response: ResponseSummary?)
    /// Hash the pieces of the partial file wholly inside `range`, which connections from
    /// `mirror` wrote; answers `QueueInput.piecesVerified`.
    case verifyPieces(downloadID: GID, path: String, PieceHashes, total: Int64, range: Range<Int64>, mirror: Int)
    /// Read the Metalink the download saved (its response was `application/metalink4+xml`)
    /// and make downloads of its files; answers `QueueInput.metalinkFollowed`.
    indirect case followMetalink(Download)
    /// Add a torrent to the session (its name gate passed first); answers
    /// `QueueInput.torrentStarted`.
    indirect case startTorrent(TorrentPlan)
    /// Take a torrent out of the session, its resume data saved first.
    case stopTorrent(GID)
    /// Give a running torrent the options it has now (its files, its limits).
    indirect case retuneTorrent(GID, EffectiveOptions)
    /// Fire `QueueTimer` after so many seconds (`QueueInput.timerFired`).
    case schedule(QueueTimer, after: Double)
}

/// Which connection: numbered by the core, in the order it planned them, and the download it
/// serves. The number alone tells connections apart (and is all that is hashed).
struct ConnectionID: OneWordHashable, Sendable, CustomStringConvertible {
    let number: Int
    let downloadID: GID

    var description: String { "c\(number)" }

    static func == (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.number == rhs.number }

    var hashWord: UInt64 { UInt64(UInt(bitPattern: number)) }
}

/// A connection the core decided to open: what the shell needs to start it, and what the core
/// needs to judge its answer.
struct PlannedConnection: Sendable {
    /// What is fixed when the connection is planned, in one box: a plan is copied into the
    /// core's table, into its start effect and into the shell's connection, and read back at
    /// each of its messages; a copy of the box is one reference, where the request alone holds
    /// a dozen (copying and destroying plans was a good share of a small file's work).
    private struct Fixed: Sendable {
        let id: ConnectionID
        let request: Request
        let hostKey: String
        let resumeOffset: Int64
        let expectedValidator: String?
        let expectedTotal: Int64?
        let isHelper: Bool
        let conditionalLookup: ConditionalGet.Lookup?
    }

    private final class Box: Sendable {
        let fixed: Fixed

        init(_ fixed: Fixed) {
            self.fixed = fixed
        }
    }

    private let box: Box
    /// The file the conditional request asked about, once its response says.
    var conditionalFile: String?
    /// Whether the body goes to a file with no name, named by the engine when complete.
    var unnamed = false
    /// Whether a response came (a host that answers is not refusing: `HostRefusals`).
    var answered = false
    /// Set when a plain answer is known before the response: a 200 goes to a file with no name
    /// at once, on the engine thread, without a round trip through the core.
    var presumedUnnamed: UnnamedPresumption?
    /// Uptime (seconds) when the core started it.
    var startedAt = 0.0
    /// Where its body is written from, once the response is accepted: `resumeOffset`, or 0 when
    /// a server sent the whole file to a request for the rest.
    var bodyOffset: Int64?

    init(
        id: ConnectionID, request: Request, hostKey: String, resumeOffset: Int64, expectedValidator: String?,
        expectedTotal: Int64?, isHelper: Bool, conditionalLookup: ConditionalGet.Lookup?
    ) {
        box = Box(
            Fixed(
                id: id, request: request, hostKey: hostKey, resumeOffset: resumeOffset,
                expectedValidator: expectedValidator, expectedTotal: expectedTotal, isHelper: isHelper,
                conditionalLookup: conditionalLookup))
    }

    var id: ConnectionID { box.fixed.id }
    var request: Request { box.fixed.request }
    /// The host the per-host cap counts this connection against.
    var hostKey: String { box.fixed.hostKey }
    /// The first byte asked for (0 for the whole file).
    var resumeOffset: Int64 { box.fixed.resumeOffset }
    /// The validator the partial data was read under, when resuming.
    var expectedValidator: String? { box.fixed.expectedValidator }
    /// The whole file's length the partial data belongs to, when resuming and it is known.
    var expectedTotal: Int64? { box.fixed.expectedTotal }
    /// One of the extra connections of a split download, fetching a closed range.
    var isHelper: Bool { box.fixed.isHelper }
    /// Where a conditional request (`conditional-get`) looks for the file it asks about.
    var conditionalLookup: ConditionalGet.Lookup? { box.fixed.conditionalLookup }
    var downloadID: GID { id.downloadID }
}

/// A body accepted to be written: the file it goes to is to be named (`QueueEffect.reserveName`).
struct NameRequest: Sendable {
    let connection: ConnectionID
    let download: Download
    let response: Response
    /// The request that got the response (after redirects): a split's other connections ask alike.
    let request: Request
    /// Where the body starts in the file, and the file's whole length.
    let offset: Int64
    let total: Int64
    /// The existing file a conditional request asked about: a 200 replaces it.
    let replacing: String?
    /// Whether the body may go to a file with no name (`QueueConfiguration.unnamedFiles`), and
    /// after how many bytes of a body of unknown length it is named as a partial file instead.
    let mayBeUnnamed: Bool
    let spillAfter: Int64?
}

/// A connection whose 200 may go to a file with no name before the core hears of it: the
/// download as it starts, and the longest body that may (one of unknown length is spilled to a
/// partial file past it). The core still judges the response when it comes
/// (`ResponseFacts.presumed`).
final class UnnamedPresumption: Sendable {
    let download: Download
    let limit: Int64

    init(download: Download, limit: Int64) {
        self.download = download
        self.limit = limit
    }
}

/// A body written to a file with no name: what the shell needs to name it when complete (or
/// when it grows past `spillAfter`), on the engine thread.
struct UnnamedWrite: Sendable {
    let download: Download
    let directory: String
    /// The file's name, before collisions (`name.1.ext`…).
    let name: String
    let spillAfter: Int64?
    /// What the response says that is kept with the file.
    let validators: ConditionalGet.Validators
}

/// A torrent the core admitted: what the shell needs to add it to the session.
struct TorrentPlan: Sendable {
    let download: Download
    let link: TorrentLink
    /// The folder its file (or its folder) goes in.
    let directory: String
    var options: EffectiveOptions
}
