import HaulNet
import Synchronization

// MARK: - UnnamedPresumer

/// A download connection's own answer to its response, when the core allowed one as it planned
/// the connection (`PlannedConnection.presumedUnnamed`): a 200 of known length up to the limit
/// goes to a file with no name at once, as `reserveName` and `named` would have sent it, without
/// a round trip through the queue per file. Every other response is asked about as usual. A body
/// of unknown length is asked about too: it may grow into a partial file, which the core must
/// know of first.
///
/// **Threading:** made on the queue's `callbackQueue`; `answer` runs on the engine thread,
/// `answered` on `callbackQueue` after the response's delegate message.
final class UnnamedPresumer: Sendable {
    private let limit: Int64
    private let file: @Sendable (Response) -> UnnamedFile
    private let used = Mutex(false)

    /// `file` makes the file with no name a response's body goes to.
    init(limit: Int64, file: @escaping @Sendable (Response) -> UnnamedFile) {
        self.limit = limit
        self.file = file
    }

    /// Whether `answer` answered a response (the core is told so with it).
    var answered: Bool { used.withLock { $0 } }

    /// The answer to `response`, or nil to ask the queue.
    func answer(_ response: Response) -> ResponseDisposition? {
        let total = response.expectedContentLength
        guard response.statusCode == 200, total >= 0, total <= limit else { return nil }
        used.withLock { $0 = true }
        return .becomeDownload(DownloadTarget(unnamed: file(response)))
    }
}
