import Dispatch
import Foundation
import HaulCore
import HaulNet
import Synchronization

// MARK: - StandardOutputDownload

/// `haul get -o - URL`: the body goes to stdout as it arrives, as with `wget -O -` and curl:
/// one URL, one connection, no partial file to resume and no retry (what was written cannot be
/// taken back); errors go to stderr.
///
/// **Threading:** the delegate messages run on a serial queue of its own; `run` blocks until
/// the load ends.
final class StandardOutputDownload: ConnectionDelegate {
    private let failure = Mutex<(message: String, code: ErrorCode)?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Loads `request`, writing the body to stdout; returns nil when all of it was written,
    /// else what went wrong and aria2's code for it.
    static func run(_ request: Request) -> (message: String, code: ErrorCode)? {
        let download = StandardOutputDownload()
        let connection = Connection(
            request: request, delegate: download,
            queue: DispatchQueue(label: "haul.stdout"))
        connection.start()
        download.ended.wait()
        return download.failure.withLock { $0 }
    }

    func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        guard response.isSuccess else {
            failure.withLock {
                $0 = (
                    "the server answered \(response.statusCode) \(TextSanitizer.visible(response.reasonPhrase))",
                    ErrorCode(status: response.statusCode)
                )
            }
            // A cancelled load sends no further message: this is its end.
            ended.signal()
            return .cancel
        }
        return .allow
    }

    func connection(_ connection: Connection, didReceive data: Data) {
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard !written else { return }
        let number = errno
        failure.withLock { $0 = ("cannot write to stdout: \(String(cString: strerror(number)))", .fileIO) }
        connection.cancel()
        ended.signal()
    }

    func connectionDidFinishLoading(_ connection: Connection) {
        ended.signal()
    }

    func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        failure.withLock { $0 = $0 ?? (error.descriptionWithoutURL, ErrorCode(error.kind)) }
        ended.signal()
    }
}
