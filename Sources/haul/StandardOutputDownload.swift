import Dispatch
import Foundation
import HaulCore
import HaulNet
import HaulText
import Synchronization

// MARK: - StandardOutputDownload

/// `haul get -o - URL`: the body goes to stdout as it arrives, as with `wget -O -` and curl:
/// one URL, one connection, no partial file to resume and no retry (what was written cannot be
/// taken back); errors go to stderr, and so does progress when stderr is a terminal (as
/// `haul get`'s status line: size, percent, speed, ETA).
///
/// **Threading:** the delegate messages run on a serial queue of its own; `run` blocks until
/// the load ends.
final class StandardOutputDownload: ConnectionDelegate {
    private let failure = Mutex<(message: String, code: ErrorCode)?>(nil)
    private let ended = DispatchSemaphore(value: 0)
    /// What the status line shows, when it is shown (nil when not).
    private let progress: Mutex<Progress?>

    /// The status line's figures.
    private struct Progress {
        var download: Download
        let startedAt = Date()
        /// The first line after half a second, when the speed means something.
        lazy var shownAt = startedAt
        var wasShown = false
    }

    private init(showing uri: String?) {
        progress = Mutex(uri.map { Progress(download: Download(uris: [$0])) })
    }

    /// Loads `request`, writing the body to stdout, with a status line on stderr when
    /// `showsProgress`; returns nil when all of it was written, else what went wrong and
    /// aria2's code for it.
    static func run(_ request: Request, showsProgress: Bool) -> (message: String, code: ErrorCode)? {
        let download = StandardOutputDownload(showing: showsProgress ? request.url.absoluteString : nil)
        let connection = Connection(
            request: request, delegate: download,
            queue: DispatchQueue(label: "haul.stdout"))
        connection.start()
        download.ended.wait()
        if download.progress.withLock({ $0?.wasShown }) == true {
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return download.failure.withLock { $0 }
    }

    /// Counts `bytes` more written and shows the status line, at most twice a second unless
    /// `final`.
    private func show(adding bytes: Int = 0, final: Bool = false) {
        guard
            let shown = progress.withLock({ held -> (Download, Double)? in
                guard var progress = held else { return nil }
                defer { held = progress }
                let done = progress.download.bytesDone.adding(saturating: Int64(bytes))
                progress.download.completed = ByteRanges([0..<done])
                let now = Date()
                guard final || now.timeIntervalSince(progress.shownAt) >= 0.5 else { return nil }
                progress.shownAt = now
                progress.wasShown = true
                return (progress.download, Double(done) / max(now.timeIntervalSince(progress.startedAt), 0.001))
            })
        else { return }
        let line = ProgressReporter.statusLine(
            active: [(shown.0, shown.1)], waiting: 0, width: ProgressReporter.terminalWidth - 1)
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        progress.withLock { $0?.download.totalBytes = response.expectedContentLength }
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
        guard !written else {
            show(adding: data.count)
            return
        }
        let number = errno
        failure.withLock { $0 = ("cannot write to stdout: \(String(cString: strerror(number)))", .fileIO) }
        connection.cancel()
        ended.signal()
    }

    func connectionDidFinishLoading(_ connection: Connection) {
        show(final: true)
        ended.signal()
    }

    func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        failure.withLock { $0 = $0 ?? (error.descriptionWithoutURL, ErrorCode(error.kind)) }
        ended.signal()
    }
}
