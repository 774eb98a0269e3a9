import Foundation
import HaulNet

// MARK: - Verification and naming

/// How a complete body becomes the file: its digest is checked (when the download has a
/// checksum) off the queue, then it gets its final name. A partial file that already holds the
/// whole body (a run killed while checking it, or a digest corrected after a mismatch) is
/// checked and named without asking the server again.
extension DownloadQueue {
    /// Checks the whole file's digest (if one was given) and gives it its final name; the
    /// attempt's ending (`complete`) waits for both.
    func finishDownload(_ download: Download, attempt: DownloadConnection, at path: String) {
        let replacing = attempt.conditionalFile != nil
        guard download.options.merged(over: configuration.defaults).checksum != nil else {
            record(nameFile(download, at: path, failure: nil, replacing: replacing), of: download)
            return
        }
        state.withLock { $0.verifying[ObjectIdentifier(attempt)] = false }
        verify(download, at: path) { [self] failure in
            let loadingEnded = state.withLock { $0.verifying.removeValue(forKey: ObjectIdentifier(attempt)) } ?? false
            guard state.withLock({ $0.connections[attempt.downloadID] === attempt }) else { return }
            record(nameFile(download, at: path, failure: failure, replacing: replacing), of: download)
            if loadingEnded { complete(attempt) }
        }
    }

    /// Whether the store says the partial file of `download` holds every byte of the file, so the
    /// next attempt may need no transfer (`checkWhole` looks at the file). Pure: runs under the lock.
    static func isRecordedWhole(_ download: Download) -> Bool {
        download.totalBytes > 0 && download.completed.prefixLength >= download.totalBytes
            && download.partialPath != nil
    }

    /// A download recorded whole (active, without a connection): when its partial file is there,
    /// a regular file of the whole length, it is checked and named; otherwise it starts over.
    /// Runs on `callbackQueue`, outside the lock.
    func checkWhole(_ download: Download) {
        StateLockMarker.assertNotHeld("reading a partial file's size")
        var status = stat()
        if let partial = download.partialPath, lstat(partial, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            Int64(status.st_size) == download.totalBytes
        {
            verifyWhole(download, at: partial)
            return
        }
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                guard state.downloads[download.id]?.state == .active, state.connections[download.id] == nil else {
                    return []
                }
                return startOver(&state, download.id, reason: nil, refundAttempt: true)
            })
    }

    /// Checks and names the whole partial file at `path` of download `id` (active, without a
    /// connection); then it is complete, or failed with why.
    private func verifyWhole(_ download: Download, at path: String) {
        verify(download, at: path) { [self] failure in
            let outcome = nameFile(download, at: path, failure: failure, replacing: false)
            startConnections(
                state.withLock { state -> [DownloadConnection] in
                    guard var current = state.downloads[download.id], current.state == .active,
                        state.connections[download.id] == nil
                    else { return [] }
                    switch outcome {
                    case .failure(let failure):
                        return failed(&state, download.id, .local(failure.code), failure.message)
                    case .success(let destination):
                        current.destination = destination
                        return markComplete(&state, current)
                    }
                })
        }
    }

    // MARK: - Pieces

    /// Hashes the file at `path` on a utility queue (a large file does not hold up every other
    /// download's events) when the download has a checksum; `done` runs on `callbackQueue` with
    /// the failure, if any. A mismatch keeps the data in the partial file and says so.
    private func verify(_ download: Download, at path: String, done: @escaping @Sendable (DownloadFailure?) -> Void) {
        guard let expected = download.options.merged(over: configuration.defaults).checksum else {
            callbackQueue.async { done(nil) }
            return
        }
        DispatchQueue.global(qos: .utility).async { [callbackQueue] in
            var failure: DownloadFailure?
            do {
                let actual = try Checksum.digest(ofFileAt: path, algorithm: expected.algorithm)
                if actual != expected.hex {
                    failure = DownloadFailure(
                        "checksum mismatch: expected \(expected), got \(expected.algorithm.rawValue)=\(actual); "
                            + "the data is kept in \(path): correct the digest and retry to check it again "
                            + "without downloading, or delete it to download again",
                        code: .checksumMismatch)
                }
            } catch {
                failure = DownloadFailure("\(error)", code: .fileIO)
            }
            callbackQueue.async { [failure] in done(failure) }
        }
    }

    /// Gives a verified file its final name (and, as its options ask, the server's
    /// Last-Modified as its mtime, and its ETag for the next conditional get). Returns the path
    /// it got, or why it has none.
    private func nameFile(
        _ download: Download, at path: String, failure: DownloadFailure?,
        replacing: Bool
    ) -> Result<String, DownloadFailure> {
        if let failure { return .failure(failure) }
        guard let destination = download.destination else {
            return .failure(DownloadFailure("the download has no file name", code: .unknown))
        }
        let options = download.options.merged(over: configuration.defaults)
        let named: String
        do {
            named = try FileNaming.moveIntoPlace(
                path, to: destination,
                replacing: replacing || options.allowOverwrite == true)
        } catch {
            return .failure(DownloadFailure(error.description, code: .renameFailed))
        }
        if options.remoteTime == true {
            ConditionalGet.applyRemoteTime(download.response?.header("Last-Modified"), to: named)
        }
        ConditionalGet.remember(validatorsOf: download.response, of: named)
        if options.continueExisting == true {
            // aria2's progress record of the file this download continued: it is whole now.
            unlink(destination + Aria2ControlFile.suffix)
        }
        SavedFileMark.mark(named, uri: download.displayURI)
        return .success(named)
    }

    /// Files what naming gave for the attempt's ending: the saved path, or the failure.
    private func record(_ outcome: Result<String, DownloadFailure>, of download: Download) {
        state.withLock { state in
            switch outcome {
            case .failure(let failure):
                state.lateFailure[download.id] = failure
            case .success(let destination):
                state.saved.insert(download.id)
                if destination != download.destination { state.downloads[download.id]?.destination = destination }
            }
        }
    }
}
