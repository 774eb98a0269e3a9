import Foundation
import HaulNet

// MARK: - Resume

/// What a first connection's response means for the download's partial file: write the body
/// (from byte 0, or continuing what is there), start over, keep what is there, or fail. Never
/// splice two versions of a file.
extension QueueCore {
    /// A connection's TLS agreed on HTTP/2 with `hostKey` (its current hop's host).
    mutating func multiplexing(_ id: ConnectionID, hostKey: String) {
        guard state.connection(id) != nil else { return }
        learnMultiplexing(hostKey)
    }

    /// Host `hostKey` answers over HTTP/2: unless it answered at once (a near host), its queued
    /// downloads may now go out as streams.
    private mutating func learnMultiplexing(_ hostKey: String) {
        if state.learnMultiplexing(hostKey, at: clock.uptime, nearAnswer: configuration.nearAnswer) { admit() }
    }

    mutating func responded(_ id: ConnectionID, _ facts: ResponseFacts) {
        let downloadID = id.downloadID
        guard let connection = state.connection(id), var download = state.downloads[downloadID] else {
            return ask(.answer(id, .cancel))
        }
        if connection.isHelper { return helperResponded(id, facts.response) }
        let response = facts.response
        state.modifyAttempt(downloadID) { attempt in
            attempt.holder.conditionalFile = facts.conditionalFile
            attempt.holder.answered = true
        }
        if !state.hostRefusals.isEmpty { state.hostRefusals.answered(connection.hostKey) }
        if response.httpVersion == "HTTP/2" { learnMultiplexing(connection.hostKey) }
        show(
            downloadID,
            .response(
                ResponseSummary(
                    response, redirectChain: facts.redirects, everyHeader: configuration.keepsEveryHeader,
                    request: facts.currentRequest)))
        if response.statusCode == 304, let existing = facts.conditionalFile {
            ask(.answer(id, .cancel))
            return keepUnchanged(downloadID, existing, size: facts.unchangedSize ?? 0)
        }
        let judged = ResumeRule.judge(
            response, rangeFrom: connection.request.byteRange?.lowerBound,
            validator: connection.expectedValidator, total: connection.expectedTotal)
        if case .write = judged {} else { ask(.answer(id, .cancel)) }
        switch judged {
        case .fail(let mismatch?):
            endAttempt(downloadID)
            failed(downloadID, .transport(.transport), mismatch)
        case .fail(nil):
            endAttempt(downloadID)
            let reason = TextSanitizer.visible(response.reasonPhrase)
            let advice =
                response.statusCode == 401
                ? QueueCore.loginAdvice(challenge: facts.challenge, credentials: connection.request.credentials) : ""
            failed(
                downloadID, .status(response.statusCode, retryAfter: response.headers["Retry-After"]),
                "the server answered \(response.statusCode) \(reason)\(advice)")
        case .startOver:
            // Never splice two versions: drop the partial data and ask for the whole file. The
            // ranged attempt that found the change is not counted; the request for the whole
            // file that follows has no range, so it cannot start over again.
            startOver(downloadID, reason: nil, refundAttempt: true)
        case .whole(let total):
            // Nothing follows what is there: check and name the partial file, no transfer.
            state.downloads[downloadID]?.totalBytes = total
            requeue(downloadID, refundAttempt: true)
        case .write(_, let total) where download.options.dryRun ?? configuration.defaults.dryRun == true:
            ask(.answer(id, .cancel))
            answeredDryRun(download, response: response, total: total)
        case .write(let offset, let total):
            if offset == 0, let asked = connection.request.byteRange?.lowerBound, asked > 0 {
                show(downloadID, .startedOver(QueueCore.wholeAgain(response, askedFrom: asked)))
            }
            let options = options(of: download)
            let unnamed = mayBeUnnamed(
                download, options: options, offset: offset, total: total, replacing: facts.conditionalFile)
            if facts.presumed {
                // The engine sent the body to a file with no name already; the plan allowed
                // only what is allowed here, so this is a guard against that ever changing.
                guard unnamed else {
                    ask(.answer(id, .cancel))
                    return requeue(downloadID, refundAttempt: true)
                }
                return writesUnnamed(id, &download, offset: offset, total: total, validator: response.validator)
            }
            // Naming touches the disk and the store: the shell does it, and answers `named`.
            ask(
                .reserveName(
                    NameRequest(
                        connection: id, download: download, response: response, request: facts.currentRequest,
                        offset: offset, total: total, replacing: facts.conditionalFile, mayBeUnnamed: unnamed,
                        spillAfter: unnamed && total < 0 ? options.resumableAbove : nil)))
        }
    }

    /// Why a download asked to continue at byte `asked` starts over: `response` sent the whole
    /// file again.
    static func wholeAgain(_ response: Response, askedFrom asked: Int64) -> String {
        let why =
            response.offersRanges
            ? "its validator no longer matched: the file changed"
            : "it does not take ranges"
        return "starts over: asked for the rest from \(ByteCount.format(asked)), the server sent the whole file "
            + "(\(response.statusCode)); \(why)"
    }

    /// Whether the body may go to a file with no name, named when complete: a whole body
    /// (from byte 0) of at most `resumable-above` bytes (`options`, the download's in effect;
    /// one of unknown length becomes a partial file when it grows past that), or of unknown length, that will not
    /// be split, checked against a digest, or put over an existing file, of a download that has
    /// no partial file yet (one that has keeps it), and whose file is not kept private (files
    /// with no name are made 0644 ahead of time).
    func mayBeUnnamed(
        _ download: Download, options: EffectiveOptions, offset: Int64, total: Int64, replacing: String?
    ) -> Bool {
        let limit = options.resumableAbove
        return configuration.unnamedFiles && limit > 0 && offset == 0 && total <= limit
            && !wouldSplit(download, options: options, total: total)
            && options.checksum == nil && options.pieceHashes == nil
            && replacing == nil && options.allowOverwrite != true && options.autoFileRenaming != false
            && options.continueExisting != true && download.destination == nil && !download.keepsFilePrivate
    }

    /// What a 401 says to do: give a login, or check the one that was refused; or, when the
    /// server wants a scheme haul does not answer, that the login was never sent.
    static func loginAdvice(challenge: AuthenticationChallenge?, credentials: Credentials?) -> String {
        if let challenge, challenge.previousFailureCount > 0 { return ": the user name and password were refused" }
        guard credentials != nil else {
            return ": give a user name and password (--http-user and --http-passwd, or a netrc entry)"
        }
        let schemes = challenge.map { TextSanitizer.visible($0.schemes.joined(separator: ", ")) } ?? "none"
        return ": the server asks for a login haul cannot give (it answers Basic and Digest; "
            + "the server offers \(schemes)), so the user name and password were not sent"
    }

    /// A dry run's answer (`dry-run`): the server has the file, and its name and size are
    /// known. Nothing is written; the download is complete.
    private mutating func answeredDryRun(_ download: Download, response: Response, total: Int64) {
        endAttempt(download.id)
        var download = download
        let name = options(of: download).out ?? FileNaming.name(for: response)
        download.destination = FileNaming.path(for: name, in: download.directory ?? configuration.directory)
        download.totalBytes = total
        markComplete(download)
    }

    /// A conditional request answered 304: the file already there is the download, complete.
    private mutating func keepUnchanged(_ id: GID, _ path: String, size: Int64) {
        endAttempt(id)
        guard var download = state.downloads[id] else { return }
        download.destination = path
        download.totalBytes = size
        download.completed = ByteRanges(size > 0 ? [0..<size] : [])
        markComplete(download)
    }

    // MARK: - Starting over

    /// Stops the download's connections, drops its partial data and queues it again from byte
    /// zero. `refundAttempt`: the attempt that found the change does not count as a try.
    mutating func startOver(_ id: GID, reason: String?, refundAttempt: Bool) {
        state.downloads[id]?.completed.removeAll()
        state.downloads[id]?.validator = nil
        requeue(id, reason: reason, refundAttempt: refundAttempt)
    }

    /// Ends the download's attempt and queues it again at once (`reason` becomes its last error).
    mutating func requeue(_ id: GID, reason: String? = nil, refundAttempt: Bool) {
        stopAttempt(id)
        guard var download = state.downloads[id] else { return }
        if refundAttempt { download.attempts -= 1 }
        if let reason { download.lastError = reason }
        download.state = .queued
        file(download)
        state.markAdmittable(id)
        admit()
    }
}
