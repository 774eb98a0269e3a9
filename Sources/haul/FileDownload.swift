import Foundation
import HaulCore
import HaulNet
import Synchronization

// MARK: - FileDownload

/// The delegate of one `haul get` download: names the file from the response, streams the body
/// to `NAME.part` on the engine thread, and renames it to `NAME` only when it is complete.
///
/// **Threading:** its messages run on the command's serial delegate queue; `succeeded` may be
/// read from any thread (the state is behind a lock).
final class FileDownload: ConnectionDelegate {
    private struct State {
        var destination: URL?
        var succeeded = false
    }

    let request: Request
    private let directory: URL
    private let fixedName: String?
    private let allowOverwrite: Bool
    private let reporter: ProgressReporter
    private let state = Mutex(State())

    init(request: Request, directory: URL, fixedName: String?, allowOverwrite: Bool, reporter: ProgressReporter) {
        self.request = request
        self.directory = directory
        self.fixedName = fixedName
        self.allowOverwrite = allowOverwrite
        self.reporter = reporter
    }

    var succeeded: Bool { state.withLock { $0.succeeded } }

    // MARK: - ConnectionDelegate

    func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        guard response.isSuccess else {
            let reason = TextSanitizer.visible(response.reasonPhrase)
            reporter.failed(self, url: request.url, reason: "the server answered \(response.statusCode) \(reason)")
            return .cancel
        }
        let name = fixedName ?? FileNaming.name(for: response)
        let destination = FileNaming.uniqueDestination(for: name, in: directory, allowOverwrite: allowOverwrite)
        let partial = FileNaming.partialURL(for: destination)
        do {
            // Creating the partial file now reserves the name against the other downloads.
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission)
            }
        } catch {
            reporter.failed(self, url: request.url, reason: "cannot create \(partial.path): check the directory exists and is writable")
            return .cancel
        }
        state.withLock { $0.destination = destination }
        reporter.started(self, name: destination.lastPathComponent, expected: response.expectedContentLength)
        return .becomeDownload(DownloadTarget(path: partial.path))
    }

    func connection(_ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
                    totalBytesExpectedToWrite: Int64) {
        reporter.progress(self, done: totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func connection(_ connection: Connection, didFinishDownloadingTo path: String) {
        guard var destination = state.withLock({ $0.destination }) else { return }
        if !allowOverwrite, FileManager.default.fileExists(atPath: destination.path) {
            destination = FileNaming.uniqueDestination(for: destination.lastPathComponent, in: destination.deletingLastPathComponent(),
                                                       allowOverwrite: false)
        }
        if rename(path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            reporter.failed(self, url: request.url, reason: "cannot rename \(path) to \(destination.path): \(reason)")
            return
        }
        state.withLock { $0.destination = destination }
    }

    func connectionDidFinishLoading(_ connection: Connection) {
        guard let destination = state.withLock({ state -> URL? in
            state.succeeded = state.destination != nil
            return state.destination
        }) else { return }
        reporter.completed(self, path: destination.path)
    }

    func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        var reason = error.description
        if let destination = state.withLock({ $0.destination }) {
            reason += " (received data kept in \(FileNaming.partialURL(for: destination).path))"
        }
        reporter.failed(self, url: request.url, reason: reason)
    }
}
