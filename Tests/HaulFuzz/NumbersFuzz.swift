import Foundation
import HaulNet
import HaulRPC
import HaulTUI
import HaulText
import Synchronization

@testable import HaulCore

// MARK: - NumbersFuzz

/// The `numbers` target: the numbers a server, a file or a client sends (sizes, ranges,
/// positions, written counts, speeds), drawn toward the extremes (`Int64.max`, 8 PiB, 9e18,
/// negatives), driven through the queue core as a server's answers, then through the screen,
/// aria2's status records and a daemon's list read back. Nothing may trap; sums stay in range.
enum NumbersFuzz {
    /// Numbers read from the input, each chosen by one byte toward an extreme or taken whole.
    struct Numbers {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isEmpty: Bool { index >= bytes.count }

        mutating func byte() -> UInt8 {
            defer { index += 1 }
            return index < bytes.count ? bytes[index] : 0
        }

        mutating func next() -> Int64 {
            let small = Int64(byte())
            switch byte() % 8 {
            case 0: return .max - small
            case 1: return FileSize.largest - 128 + small
            case 2: return 9_000_000_000_000_000_000 + small
            case 3: return -small
            case 4: return .min + small
            case 5: return small * 1024
            case 6: return (0..<8).reduce(0) { value, _ in value << 8 | Int64(byte()) }
            default: return small
            }
        }

        mutating func speed() -> Double {
            switch byte() % 5 {
            case 0: return .infinity
            case 1: return .nan
            case 2: return 1e300
            case 3: return -Double(next())
            default: return Double(next())
            }
        }
    }

    /// A clock that moves only when told.
    final class Clock: QueueClock {
        private let seconds = Mutex(1000.0)

        var uptime: Double { seconds.withLock { $0 } }
        var now: Date { Date(timeIntervalSinceReferenceDate: uptime) }
        func retryJitter() -> Double { 1 }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    static func run(_ bytes: [UInt8]) {
        var numbers = Numbers(bytes)
        let downloads = drive(&numbers)
        draw(downloads, &numbers)
        readBack(downloads, &numbers)
    }

    /// A queue whose connections are answered with the numbers: Content-Length, Content-Range,
    /// bytes written, then an end or a failure.
    private static func drive(_ numbers: inout Numbers) -> [Download] {
        let clock = Clock()
        var configuration = QueueConfiguration()
        configuration.directory = "/fuzz"
        configuration.defaults.split = Int(numbers.byte() % 4) + 1
        configuration.defaults.maxConnectionPerServer = 2
        var core = QueueCore(configuration: configuration, clock: clock)
        let added = (0..<3).map { number in
            var download = Download(id: GID(UInt64(number + 1)) ?? .next(), uris: ["http://a.test/\(number)"])
            download.directory = "/fuzz"
            return download
        }
        var effects = core.handle(.add(added))
        var rounds = 0
        while !numbers.isEmpty, rounds < 64 {
            rounds += 1
            var next: [QueueEffect] = []
            for effect in effects { next += answer(effect, &core, &numbers, clock) }
            effects = next
        }
        let downloads = core.state.downloads.ids.compactMap { core.state.downloads[$0] }
        for download in downloads {
            FuzzTarget.require(download.bytesDone >= 0, "a download holds \(download.bytesDone) bytes")
        }
        return downloads
    }

    /// What the engine and the shell answer to one effect, with the input's numbers.
    private static func answer(
        _ effect: QueueEffect, _ core: inout QueueCore, _ numbers: inout Numbers, _ clock: Clock
    ) -> [QueueEffect] {
        clock.advance(Double(numbers.byte()))
        switch effect {
        case .start(let plan):
            let first = numbers.next(), last = numbers.next(), total = numbers.next()
            var headers: HTTPHeaders = ["Content-Length": String(numbers.next()), "Accept-Ranges": "bytes"]
            headers.add("ETag", "\"e\"")
            if numbers.byte() % 2 == 0 { headers.add("Content-Range", "bytes \(first)-\(last)/\(total)") }
            let status = headers["Content-Range"] == nil ? 200 : 206
            let response = Response(url: plan.request.url, statusCode: status, headers: headers)
            return core.handle(.responded(plan.id, ResponseFacts(response, currentRequest: plan.request)))
        case .reserveName(let request):
            let path = "/fuzz/\(request.connection.number)"
            return core.handle(.named(request, .success(path), holdsOffset: true, unnamed: false))
                + core.handle(.wrote(request.connection, totalBytesWritten: numbers.next()))
                + core.handle(.wrote(request.connection, totalBytesWritten: numbers.next()))
                + (numbers.byte() % 3 == 0
                    ? core.handle(.failed(request.connection, ConnectionError(kind: .connectionLost, url: nil)))
                    : core.handle(.bodyDone(request.connection, path: path + ".part"))
                        + core.handle(.finished(request.connection)))
        case .answer(let id, .becomeDownload):
            return core.handle(.wrote(id, totalBytesWritten: numbers.next())) + core.handle(.finished(id))
        case .finishFile(let id, let download, let path, _, _):
            return core.handle(.fileFinished(id, downloadID: download.id, .success(String(path.dropLast(5)))))
        case .verifyPieces(let downloadID, _, _, _, let range, let mirror):
            return core.handle(.piecesVerified(downloadID: downloadID, bad: [range], mirror: mirror))
        default:
            return []
        }
    }

    /// The screen, at a size from the input, with the downloads and speeds from it.
    private static func draw(_ downloads: [Download], _ numbers: inout Numbers) {
        var extreme = downloads
        for index in extreme.indices {
            extreme[index].totalBytes = numbers.next()
            let done = numbers.next()
            extreme[index].completed = done > 0 ? ByteRanges([0..<done]) : ByteRanges()
            extreme[index].state = [.active, .paused, .queued, .complete][Int(numbers.byte() % 4)]
        }
        var state = AppState(width: Int(numbers.byte() % 160) + 20, height: Int(numbers.byte() % 50) + 6)
        _ = state.reduce(.queue(.added(extreme)))
        for download in extreme {
            let progress = DownloadProgress(
                completed: download.completed, totalBytes: download.totalBytes, speed: numbers.speed())
            _ = state.reduce(.queue(.progress(id: download.id, progress)))
        }
        for keys in [[Key](), [.enter], [.down, .enter]] {
            _ = state.reduce(.keys(keys))
            FuzzTarget.require(!ScreenRenderer.render(state).text.isEmpty, "an empty frame")
        }
        FuzzTarget.require(state.totals.size >= 0 && state.totals.done >= 0, "totals out of range: \(state.totals)")
    }

    /// aria2's records of the downloads, and a daemon's list of such records read back.
    private static func readBack(_ downloads: [Download], _ numbers: inout Numbers) {
        var records = downloads.map { Aria2Status.record(of: $0, activity: nil) }
        records.append([
            "gid": "00000000000000aa", "status": "active", "totalLength": .string(String(numbers.next())),
            "completedLength": .string(String(numbers.next())), "downloadSpeed": .string(String(numbers.next())),
        ])
        let snapshot = RemoteSnapshot(records: records + records)
        FuzzTarget.require(Set(snapshot.downloads.map(\.id)).count == snapshot.downloads.count, "a gid listed twice")
        for download in snapshot.downloads {
            FuzzTarget.require(
                download.totalBytes <= FileSize.largest, "a remote size past the bound: \(download.totalBytes)")
        }
        _ = RemoteSnapshot().events(to: snapshot)
    }
}
