import Foundation
import HaulNet
import Synchronization
import Testing

@testable import HaulCore

/// A clock the test moves by hand, with no chance in retry waits.
final class ManualClock: QueueClock {
    private let seconds = Mutex(1000.0)

    var uptime: Double { seconds.withLock { $0 } }
    var now: Date { Date(timeIntervalSinceReferenceDate: uptime) }
    func retryJitter() -> Double { 1 }

    func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

/// A `QueueCore` driven by hand: the test plays the engine and the shell, feeding inputs and
/// reading each input's effects as short lines (`CoreHarness.describe`).
struct CoreHarness {
    let clock = ManualClock()
    var core: QueueCore
    /// Every connection the core started, by number.
    var started: [Int: PlannedConnection] = [:]
    /// The name requests the core made, by connection number.
    var nameRequests: [Int: NameRequest] = [:]

    init(_ configure: (inout QueueConfiguration) -> Void = { _ in }) {
        var configuration = QueueConfiguration()
        configuration.directory = "/dl"
        configure(&configuration)
        core = QueueCore(configuration: configuration, clock: clock)
    }

    /// Handles `input` and returns its effects as lines.
    @discardableResult
    mutating func send(_ input: QueueInput) -> [String] {
        let effects = core.handle(input)
        let stalled = core.stalledDownloads()
        if !stalled.isEmpty {
            Issue.record("after \(input): active with bytes missing and nothing running: \(stalled)")
        }
        for effect in effects {
            if case .start(let plan) = effect { started[plan.id.number] = plan }
            if case .reserveName(let request) = effect { nameRequests[request.connection.number] = request }
        }
        return effects.map(CoreHarness.describe)
    }

    /// Queues downloads `ids`, each of `uri` (or its own), with `options`.
    @discardableResult
    mutating func add(
        _ ids: [String], uri: (String) -> String = { "http://a.test/\($0)" },
        _ options: (inout DownloadOptions) -> Void = { _ in }, _ change: (inout Download) -> Void = { _ in }
    ) -> [String] {
        let downloads = ids.map { id in
            var download = Download(id: GID(stringLiteral: id), uris: [uri(id)])
            download.directory = "/dl"
            options(&download.options)
            change(&download)
            return download
        }
        return send(.add(downloads))
    }

    func connection(_ number: Int) -> ConnectionID {
        started[number]?.id ?? ConnectionID(number: number, downloadID: "?")
    }

    func download(_ id: GID) -> Download? { core.state.downloads[id] }

    /// The downloads running as streams beyond -j.
    var streams: Set<GID> { Set(core.state.attempts.filter(\.value.isStream).keys) }

    /// Connection `number` answers `status` with `headers`; `presumed`: the connection sent its
    /// body to a file with no name itself (`UnnamedPresumer`).
    mutating func answer(
        _ number: Int, _ status: Int, _ headers: HTTPHeaders = [:], presumed: Bool = false,
        httpVersion: String = "HTTP/1.1"
    ) -> [String] {
        let id = connection(number)
        let url = started[number]?.request.url ?? URL(fileURLWithPath: "/")
        let response = Response(url: url, statusCode: status, httpVersion: httpVersion, headers: headers)
        let request = started[number]?.request ?? Request(url: url)
        return send(.responded(id, ResponseFacts(response, currentRequest: request, presumed: presumed)))
    }

    /// The longest body connection `number` may send to a file with no name without asking.
    func presumedLimit(_ number: Int) -> Int64? {
        started[number]?.presumedUnnamed?.limit
    }

    /// The shell named connection `number`'s file `path` (the partial file holding what it must).
    mutating func name(_ number: Int, _ path: String, holds: Bool = true, unnamed: Bool = false) -> [String] {
        guard let request = nameRequests[number] else { return ["no name request for c\(number)"] }
        return send(.named(request, .success(path), holdsOffset: holds, unnamed: unnamed))
    }

    /// Connection `number`'s body is done (all of a file of known length written), its file
    /// named `path`, and its load ended.
    mutating func finish(_ number: Int, as path: String) -> [String] {
        let id = connection(number)
        if let total = download(id.downloadID)?.totalBytes, total > 0, started[number]?.isHelper == false {
            send(.wrote(id, totalBytesWritten: total - (started[number]?.resumeOffset ?? 0)))
        }
        return send(.bodyDone(id, path: path + ".part"))
            + send(.fileFinished(id, downloadID: id.downloadID, .success(path)))
            + send(.finished(id))
    }

    /// Connection `number` fails with `kind`; `refused`: the server refused it before answering.
    mutating func fail(_ number: Int, _ kind: ConnectionError.Kind, refused: Bool = false) -> [String] {
        var error = ConnectionError(kind: kind, url: nil)
        error.isRefusal = refused
        return send(.failed(connection(number), error))
    }

    /// One effect as a line a table can show.
    static func describe(_ effect: QueueEffect) -> String {
        switch effect {
        case .start(let plan):
            let range = plan.request.byteRange.map {
                " bytes=\($0.lowerBound)-" + ($0.upperBound.map(String.init) ?? "")
            }
            let ifRange = plan.request.headers["If-Range"].map { " if-range \($0)" } ?? ""
            return "start \(plan.id) \(plan.downloadID) \(plan.request.url.absoluteString)\(range ?? "")\(ifRange)"
                + (plan.isHelper ? " helper" : "")
        case .cancel(let id): return "cancel \(id)"
        case .limitSpeed(let id, let speed): return "limit \(id) \(speed.map(String.init) ?? "none")"
        case .stop(let id, let offset): return "stop \(id) at \(offset)"
        case .answer(let id, .becomeDownload(let target)):
            return "write \(id) \(target.path) from \(target.offset)" + (target.end.map { " to \($0)" } ?? "")
        case .answer(let id, let disposition): return "answer \(id) \(disposition)"
        case .emit(.added(let downloads)): return "added " + downloads.map(\.id.word).joined(separator: ",")
        case .emit(.stateChanged(let download, _)):
            // A waiting or failed download's error, its first clause: its advice is tested where
            // it is written.
            let shown = download.state == .queued || download.state == .failed ? download.lastError : nil
            let error = shown.map { ": " + ($0.split(separator: ";").first ?? "") } ?? ""
            return "\(download.id) \(download.state)\(error)"
        case .emit(.updated(let download)): return "\(download.id) updated"
        case .emit(.progress(let id, let progress)): return "\(id) \(progress.bytesDone) of \(progress.totalBytes)"
        case .emit(.activity(let id, .response(let response))): return "\(id) shows response \(response.statusCode)"
        case .emit(.activity(let id, .connections(let count, _))): return "\(id) shows connections \(count)"
        case .emit(.activity(let id, .mirrorDropped(let text))): return "\(id) shows mirror dropped: \(text)"
        case .emit(.activity(let id, .hint)): return "\(id) shows a hint"
        case .emit(.activity(let id, .splitChoice(let text))): return "\(id) shows \(text)"
        case .emit(.activity(let id, .startedOver(let text))): return "\(id) \(text)"
        case .emit(.activity(let id, .torrent(let torrent))):
            return "\(id) shows torrent up \(torrent.uploaded)" + (torrent.seeding ? " seeding" : "")
        case .emit(.activity(let id, .seedingStarted)): return "\(id) seeds"
        case .emit(.removed(let id)): return "removed \(id)"
        case .emit(.moved(let id, let to)): return "moved \(id) to \(to)"
        case .reserveName(let request):
            let unnamed = request.mayBeUnnamed ? " unnamed" + (request.spillAfter.map { " until \($0)" } ?? "") : ""
            return "name \(request.connection) from \(request.offset) of \(request.total)\(unnamed)"
        case .writeUnnamed(let id, let write):
            return "write \(id) unnamed \(write.name) in \(write.directory)"
                + (write.spillAfter.map { " until \($0)" } ?? "")
        case .followMetalink(let download): return "follow metalink \(download.id)"
        case .startTorrent(let plan): return "start torrent \(plan.download.id) in \(plan.directory)"
        case .stopTorrent(let id): return "stop torrent \(id)"
        case .retuneTorrent(let id, let options):
            return "retune torrent \(id) select \(options.selectFile.map { "\($0)" } ?? "all")"
        case .verifyPieces(let id, _, _, _, let range, let mirror):
            return "verify pieces \(id) \(range.lowerBound)-\(range.upperBound) from mirror \(mirror)"
        case .finishFile(let id, _, let path, _, _): return "finish \(id) \(path)"
        case .checkWhole(let download, _): return "check whole \(download.id)"
        case .schedule(.retry(let id), let seconds): return "retry \(id) in \(seconds)s"
        case .schedule(.settleSpeeds, let seconds): return "settle speeds in \(seconds)s"
        case .schedule(.checkLaggards(let id), let seconds): return "check laggards \(id) in \(seconds)s"
        case .schedule(.measureGrowth(let id), let seconds): return "measure growth \(id) in \(seconds)s"
        case .schedule(.hostHoldOver(let host), let seconds): return "hold \(host) for \(seconds)s"
        }
    }
}
