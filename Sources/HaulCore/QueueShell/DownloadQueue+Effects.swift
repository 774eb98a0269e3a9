import Foundation
import HaulNet

// MARK: - Effects

/// How the shell runs what the core asks for: on `callbackQueue`, outside the lock.
extension DownloadQueue {
    func perform(_ effect: QueueEffect) {
        switch effect {
        case .start:
            // Started by `runEffects` before the rest of its batch.
            break
        case .cancel(let id):
            running.withLock { $0.connections.removeValue(forKey: id) }?.cancel()
        case .limitSpeed(let id, let bytesPerSecond):
            connection(id)?.setMaxReceiveSpeed(bytesPerSecond)
        case .stop(let id, let offset):
            connection(id)?.limitDownload(toFileOffset: offset)
        case .answer(let id, let disposition):
            running.withLock { running in
                running.answers[id] = disposition
                // A connection told to stop sends nothing more.
                if disposition == .cancel { running.connections.removeValue(forKey: id) }
            }
        case .emit(let event):
            journal?.record(event)
            onEvent(event)
        case .reserveName(let request):
            if request.mayBeUnnamed, let path = unnamedPath(for: request) {
                return send(.named(request, .success(path), holdsOffset: true, unnamed: true))
            }
            let named = Result { () throws(DownloadFailure) in
                try reserveName(for: request.download, response: request.response, replacing: request.replacing)
            }
            let holds =
                request.offset == 0 || (try? named.get()).map { partialHolds($0, upTo: request.offset) } ?? false
            send(.named(request, named, holdsOffset: holds, unnamed: false))
        case .writeUnnamed(let id, let write):
            let options = write.download.options.merged(over: configuration.defaults)
            let file = unnamedFile(id, write, unnamedNaming(of: write.download, options: options))
            running.withLock { $0.answers[id] = .becomeDownload(DownloadTarget(unnamed: file)) }
        case .finishFile(let id, let download, let path, let replacing, let response):
            finish(download, at: path, replacing: replacing, response: response) {
                .fileFinished(id, downloadID: download.id, $0)
            }
        case .checkWhole(let download, let response):
            guard DownloadQueue.isWhole(download) else { return send(.wholeChecked(downloadID: download.id, nil)) }
            finish(download, at: download.partialPath ?? "", replacing: false, response: response) {
                .wholeChecked(downloadID: download.id, $0)
            }
        case .verifyPieces(let id, let path, let pieces, let total, let range, let mirror):
            DispatchQueue.global(qos: .utility).async { [self] in
                let bad = (try? pieces.badPieces(ofFileAt: path, total: total, within: range)) ?? []
                deliver(.piecesVerified(downloadID: id, bad: bad, mirror: mirror))
            }
        case .followMetalink(let download):
            DispatchQueue.global(qos: .utility).async { [self] in
                deliver(.metalinkFollowed(downloadID: download.id, followMetalink(download)))
            }
        case .startTorrent(let plan):
            torrents().start(plan)
        case .stopTorrent(let id):
            torrents().stop(id)
        case .retuneTorrent(let id, let options):
            torrents().retune(id, options)
        case .schedule(.retry(let id), let seconds):
            timer.schedule(after: seconds) { [weak self] in self?.deliver(.timerFired(.retry(id))) }
        case .schedule(let timer, let seconds):
            callbackQueue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.deliver(.timerFired(timer)) }
        }
    }

    /// Checks the file's digest, when the download has one, then gives the file its final name;
    /// the outcome goes back to the core as `input(outcome)`. Without a digest this happens at
    /// once; with one the file is hashed on a utility queue (a large file does not hold up every
    /// other download's messages) and named back on `callbackQueue`.
    private func finish(
        _ download: Download, at path: String, replacing: Bool, response: ResponseSummary?,
        _ input: @escaping @Sendable (Result<String, DownloadFailure>) -> QueueInput
    ) {
        let name = { @Sendable [self] (failure: DownloadFailure?) in
            input(nameFile(download, at: path, failure: failure, replacing: replacing, response: response))
        }
        let options = download.options.merged(over: configuration.defaults)
        guard options.checksum != nil || options.pieceHashes != nil else { return send(name(nil)) }
        DispatchQueue.global(qos: .utility).async { [self] in
            let failure = DownloadQueue.check(
                path, total: download.totalBytes, pieces: options.pieceHashes, whole: options.checksum)
            callbackQueue.async { [self] in
                send(name(failure))
                runEffects()
            }
        }
    }

    /// Makes the connection `plan` describes, files it, and starts it.
    func start(_ plan: PlannedConnection) {
        let ownAnswer = plan.presumedUnnamed.flatMap { self.presumer(for: plan.id, $0) }
        let connection = DownloadConnection(
            plan: plan, queue: self, callbackQueue: callbackQueue, engine: engine, presumer: ownAnswer)
        running.withLock { $0.connections[plan.id] = connection }
        connection.start()
    }

    /// The running connection `id`, if the shell still runs it.
    func connection(_ id: ConnectionID) -> DownloadConnection? {
        running.withLock { $0.connections[id] }
    }

    /// Hands `input` to the core from any thread and runs its effects on `callbackQueue`.
    func deliver(_ input: QueueInput) {
        callbackQueue.async { [self] in
            send(input)
            runEffects()
        }
    }
}
