import Foundation
import HaulNet

@testable import HaulCore

// MARK: - SplitLivenessFuzz

/// The `split-liveness` target: a 48 MiB download split automatically, whose connections the
/// input answers one pending thing at a time (a 206 and bytes, a 503, a 429 with or without
/// Retry-After, a cut after the headers, a refused connection, a reset in the body, a stall),
/// with the core's timers fired as time passes. After every input the core's liveness holds:
/// an active download with bytes missing has a connection running or starting
/// (`QueueCore.stalledDownloads`), and the bytes it counts never pass the file's length.
enum SplitLivenessFuzz {
    static let total: Int64 = 48 << 20

    /// Something the shell or the engine owes the core.
    private enum Pending {
        case started(PlannedConnection)
        case name(NameRequest)
        case body(ConnectionID, from: Int64, to: Int64)
        case timer(QueueTimer)
    }

    static func run(_ bytes: [UInt8]) {
        var numbers = NumbersFuzz.Numbers(bytes)
        let clock = NumbersFuzz.Clock()
        var configuration = QueueConfiguration()
        configuration.directory = "/fuzz"
        var core = QueueCore(configuration: configuration, clock: clock)
        var download = Download(id: GID(UInt64(1)) ?? .next(), uris: ["http://a.test/big"])
        download.directory = "/fuzz"
        var pending: [Pending] = []
        var written: [ConnectionID: Int64] = [:]
        func feed(_ input: QueueInput) {
            for effect in core.handle(input) {
                switch effect {
                case .start(let plan): pending.append(.started(plan))
                case .reserveName(let request): pending.append(.name(request))
                case .answer(let id, .becomeDownload(let target)):
                    pending.append(.body(id, from: target.offset, to: target.end ?? total))
                case .schedule(let timer, _): pending.append(.timer(timer))
                case .finishFile(let id, let finished, let path, _, _):
                    feed(.fileFinished(id, downloadID: finished.id, .success(String(path.dropLast(5)))))
                default: break
                }
            }
            let stalled = core.stalledDownloads()
            FuzzTarget.require(stalled.isEmpty, "after \(input): active, bytes missing, nothing running")
            for id in core.state.downloads.ids {
                let done = core.state.downloads[id]?.bytesDone ?? 0
                FuzzTarget.require(done >= 0 && done <= total, "\(done) bytes done of \(total)")
            }
        }
        feed(.add([download]))
        var rounds = 0
        while !numbers.isEmpty, !pending.isEmpty, rounds < 400 {
            rounds += 1
            clock.advance(Double(numbers.byte() % 8) / 10)
            let index = Int(numbers.byte()) % pending.count
            let next = pending.remove(at: index)
            switch next {
            case .started(let plan): answer(plan, numbers.byte(), &numbers, feed)
            case .name(let request):
                feed(.named(request, .success("/fuzz/big"), holdsOffset: true, unnamed: false))
                written[request.connection] = 0
                pending.append(.body(request.connection, from: request.offset, to: total))
            case .body(let id, let from, let to):
                let length = max(to - from, 0)
                let sofar = written[id, default: 0]
                switch numbers.byte() % 6 {
                case 0:
                    feed(.failed(id, ConnectionError(kind: .connectionLost, url: nil)))
                case 1:
                    feed(.wrote(id, totalBytesWritten: length))
                    feed(.bodyDone(id, path: "/fuzz/big.part"))
                    feed(.finished(id))
                default:
                    let more = min(sofar + Int64(numbers.byte()) << 16, length)
                    written[id] = more
                    if more > sofar { feed(.wrote(id, totalBytesWritten: more)) }
                    pending.append(.body(id, from: from, to: to))
                }
            case .timer(let timer): feed(.timerFired(timer))
            }
        }
    }

    /// A connection's answer, chosen by `choice`.
    private static func answer(
        _ plan: PlannedConnection, _ choice: UInt8, _ numbers: inout NumbersFuzz.Numbers, _ feed: (QueueInput) -> Void
    ) {
        let range = plan.request.byteRange
        var headers: HTTPHeaders = ["ETag": "\"e\"", "Accept-Ranges": "bytes"]
        func respond(_ status: Int) {
            let response = Response(url: plan.request.url, statusCode: status, headers: headers)
            feed(.responded(plan.id, ResponseFacts(response, currentRequest: plan.request)))
        }
        switch choice % 8 {
        case 0:
            respond(503)
        case 1:
            headers.add("Retry-After", String(numbers.byte() % 30))
            respond(429)
        case 2:
            respond(429)
        case 3:
            var error = ConnectionError(kind: .cannotConnect, url: nil)
            error.isRefusal = true
            feed(.failed(plan.id, error))
        case 4:
            feed(.failed(plan.id, ConnectionError(kind: .timedOut, url: nil)))
        default:
            if let range {
                let last = range.upperBound ?? total - 1
                headers.add("Content-Range", "bytes \(range.lowerBound)-\(last)/\(total)")
                headers.add("Content-Length", String(last - range.lowerBound + 1))
                respond(206)
            } else {
                headers.add("Content-Length", String(total))
                respond(200)
            }
            if choice % 8 == 5 { feed(.failed(plan.id, ConnectionError(kind: .connectionLost, url: nil))) }
        }
    }
}
