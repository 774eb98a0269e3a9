import Foundation
import HaulNet

// MARK: - Connection messages

/// The queue as the delegate of its `DownloadConnection`s: every message runs on
/// `callbackQueue`; a message from a connection the queue no longer tracks (paused, cancelled,
/// replaced) is ignored.
extension DownloadQueue {
    public func connection(_ connection: Connection, willSend request: Request, redirectResponse: Response?) -> Request?
    {
        if let redirectResponse, let attempt = connection as? DownloadConnection {
            attempt.redirects.withLock { $0.append(redirectResponse.url.redactedString) }
        }
        return request
    }

    public func connection(_ connection: Connection, didReceive response: Response) -> ResponseDisposition {
        guard let attempt = connection as? DownloadConnection else { return .cancel }
        var disposition = ResponseDisposition.cancel
        // An answer whose body is to be written: the download as it was, and where the body goes.
        var accepted: (download: Download, offset: Int64, total: Int64)?
        // A 304 to a conditional request: the size of the file kept, read before the lock.
        let unchanged =
            response.statusCode == 304 ? attempt.conditionalFile.map { ($0, DownloadQueue.size(of: $0)) } : nil
        let toStart = state.withLock { state -> [DownloadConnection] in
            let id = attempt.downloadID
            if attempt.isHelper {
                guard isCurrent(attempt, in: state) else { return [] }
                let (answer, toStart) = helperResponse(&state, attempt, response)
                disposition = answer
                return toStart
            }
            guard state.connections[id] === attempt, var download = state.downloads[id] else { return [] }
            download.response = ResponseSummary(
                response, redirectChain: attempt.redirects.withLock { $0 },
                everyHeader: configuration.keepsEveryHeader)
            state.downloads[id] = download
            if let (existing, size) = unchanged {
                return keepUnchanged(&state, id, existing, size: size)
            }
            switch ResumeRule.judge(
                response, rangeFrom: attempt.originalRequest.byteRange?.lowerBound,
                validator: attempt.expectedValidator, total: attempt.expectedTotal)
            {
            case .fail(let mismatch?):
                state.endAttempt(id)
                return failed(&state, id, .transport(.transport), mismatch)
            case .fail(nil):
                state.endAttempt(id)
                let reason = TextSanitizer.visible(response.reasonPhrase)
                let advice = response.statusCode == 401 ? DownloadQueue.loginAdvice(for: attempt) : ""
                return failed(
                    &state, id, .status(response.statusCode, retryAfter: response.headers["Retry-After"]),
                    "the server answered \(response.statusCode) \(reason)\(advice)")
            case .startOver:
                // Never splice two versions: drop the partial data and ask for the whole file. The
                // ranged attempt that found the change is not counted; the request for the whole
                // file that follows has no range, so it cannot start over again.
                state.downloads[id] = download
                return startOver(&state, id, reason: nil, refundAttempt: true)
            case .whole(let total):
                // Nothing follows what is there: check and name the partial file, no transfer.
                download.totalBytes = total
                state.downloads[id] = download
                return requeue(&state, id, refundAttempt: true)
            case .write(_, let total) where download.options.dryRun ?? configuration.defaults.dryRun == true:
                return answeredDryRun(&state, download, response: response, total: total)
            case .write(let offset, let total):
                // The file is named outside the lock (below): naming touches the disk and the store.
                accepted = (download, offset, total)
                return []
            }
        }
        startConnections(toStart)
        guard let (download, offset, total) = accepted else { return disposition }
        let named = Result { () throws(DownloadFailure) in
            try reserveName(for: download, response: response, replacing: attempt.conditionalFile)
        }
        let holds = offset == 0 || (try? named.get()).map { partialHolds($0, upTo: offset) } ?? false
        startConnections(
            state.withLock { state in
                let (answer, toStart) = write(
                    &state, attempt, response: response, named: named, holdsOffset: holds, offset: offset, total: total)
                disposition = answer
                return toStart
            })
        return disposition
    }

    /// Files the name the accepted answer's body goes under, and makes the attempt's connection
    /// a download into the partial file (bounded to its segment when the file is split). An
    /// attempt paused or cancelled while its file was named is told to stop; the name stays the
    /// download's, for its next attempt.
    private func write(
        _ state: inout State, _ attempt: DownloadConnection, response: Response,
        named: Result<String, DownloadFailure>, holdsOffset: Bool, offset: Int64, total: Int64
    ) -> (ResponseDisposition, [DownloadConnection]) {
        let id = attempt.downloadID
        guard var download = state.downloads[id] else { return (.cancel, []) }
        let destination: String
        switch named {
        case .failure(let failure):
            guard state.connections[id] === attempt else { return (.cancel, []) }
            state.endAttempt(id)
            return (.cancel, failed(&state, id, .local(failure.code), failure.message))
        case .success(let path):
            destination = path
        }
        download.destination = destination
        guard state.connections[id] === attempt else {
            state.downloads[id] = download
            return (.cancel, [])
        }
        guard holdsOffset else {
            // The partial file lost bytes the store counted (truncated, or replaced): a body
            // written after them would leave a hole. Start the file over.
            state.downloads[id] = download
            return (.cancel, startOver(&state, id, reason: nil, refundAttempt: true))
        }
        // A body from byte 0 replaces the whole file; a resumed one continues what is there.
        if offset == 0 { download.completed.removeAll() }
        download.totalBytes = total
        download.validator = response.validator
        state.downloads[id] = download
        emit(.changed(download))
        let partial = destination + FileNaming.partialSuffix
        if let split = planSplit(&state, download, primary: attempt, response: response, offset: offset, total: total) {
            let target = DownloadTarget(path: partial, offset: offset, end: split.end, keepsTail: true, mustExist: true)
            return (.becomeDownload(target), split.helpers)
        }
        return (.becomeDownload(DownloadTarget(path: partial, offset: offset, mustExist: true)), [])
    }

    /// A challenge the request's credentials did not answer: kept to say why the login failed;
    /// the 401 or 407 itself becomes the response.
    public func connection(
        _ connection: Connection,
        didReceive challenge: AuthenticationChallenge
    ) -> ChallengeDisposition {
        (connection as? DownloadConnection)?.challenge.withLock { $0 = challenge }
        return .performDefaultHandling
    }

    /// What a 401 says to do: give a login, or check the one that was refused; or, when the
    /// server wants a scheme haul does not answer, that the login was never sent.
    static func loginAdvice(for attempt: DownloadConnection) -> String {
        let challenge = attempt.challenge.withLock { $0 }
        if let challenge, challenge.previousFailureCount > 0 { return ": the user name and password were refused" }
        guard attempt.originalRequest.credentials != nil else {
            return ": give a user name and password (--http-user and --http-passwd, or a netrc entry)"
        }
        let schemes = challenge.map { TextSanitizer.visible($0.schemes.joined(separator: ", ")) } ?? "none"
        return ": the server asks for a login haul cannot give (it answers Basic and Digest; "
            + "the server offers \(schemes)), so the user name and password were not sent"
    }

    public func connection(
        _ connection: Connection, didWriteData bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        guard let attempt = connection as? DownloadConnection else { return }
        state.withLock { state in
            let id = attempt.downloadID
            guard isCurrent(attempt, in: state), var download = state.downloads[id] else { return }
            let now = uptime()
            download.completed.insert(
                recordSegmentProgress(&state, attempt, written: totalBytesWritten, now: now)
                    ?? attempt.resumeOffset..<(attempt.resumeOffset + totalBytesWritten))
            download.connections = 1 + (state.splits[id]?.helpers.count ?? 0)
            download.liveSegments = liveSegments(state, id)
            state.speedSamples[id, default: SpeedSample(bytes: download.bytesDone, at: now)]
                .smooth(&download.speed, bytes: download.bytesDone, at: now)
            scheduleSpeedSettling(&state)
            if download.hint == nil, state.splits[id] == nil, let sample = state.speedSamples[id] {
                // Read directly, not through `merged(over:)`: this runs on every progress message.
                let connections =
                    download.options.maxConnectionPerServer
                    ?? configuration.defaults.maxConnectionPerServer
                let ranges = download.response?.header("Accept-Ranges")?.lowercased() == "bytes"
                download.hint = SplitHint.text(
                    elapsed: now - sample.startedAt, speed: download.speed,
                    remaining: download.totalBytes - download.bytesDone,
                    maxConnections: connections ?? 1,
                    takesRanges: download.validator != nil && ranges)
            }
            state.downloads[id] = download
            emit(.changed(download))
        }
    }

    /// The body is in the partial file. Without a checksum it is renamed at once; with one it
    /// is hashed on a utility queue, so a large file does not hold up every other download's
    /// events, and the attempt ends when the digest is known.
    public func connection(_ connection: Connection, didFinishDownloadingTo path: String) {
        guard let attempt = connection as? DownloadConnection,
            let download = state.withLock({ state in
                // One segment of a split download is not the file: it is finished at the end.
                state.connections[attempt.downloadID] === attempt && state.splits[attempt.downloadID] == nil
                    ? state.downloads[attempt.downloadID] : nil
            })
        else { return }
        finishDownload(download, attempt: attempt, at: path)
    }

    /// A dry run's answer (`dry-run`): the server has the file, and its name and size are
    /// known. Nothing is written; the download is complete.
    private func answeredDryRun(
        _ state: inout State, _ download: Download, response: Response,
        total: Int64
    ) -> [DownloadConnection] {
        state.endAttempt(download.id)
        var download = download
        let name = download.options.merged(over: configuration.defaults).out ?? FileNaming.name(for: response)
        download.destination = FileNaming.path(for: name, in: download.directory ?? configuration.directory)
        download.totalBytes = total
        return markComplete(&state, download)
    }

    /// A conditional request answered 304: the file already there is the download, complete.
    private func keepUnchanged(_ state: inout State, _ id: String, _ path: String, size: Int64) -> [DownloadConnection]
    {
        state.endAttempt(id)
        guard var download = state.downloads[id] else { return [] }
        download.destination = path
        download.totalBytes = size
        download.completed = ByteRanges(size > 0 ? [0..<size] : [])
        return markComplete(&state, download)
    }

    /// The size of the file at `path` (0 when it cannot be read). Not under the lock.
    static func size(of path: String) -> Int64 {
        StateLockMarker.assertNotHeld("reading a file's size")
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64) ?? 0
    }

    /// Files `download` as complete (no speed, no error), says so, and admits the next.
    func markComplete(_ state: inout State, _ download: Download) -> [DownloadConnection] {
        var download = download
        download.state = .complete
        download.speed = 0
        download.lastError = nil
        state.downloads[download.id] = download
        emit(.changed(download))
        return admit(&state)
    }

    public func connectionDidFinishLoading(_ connection: Connection) {
        guard let attempt = connection as? DownloadConnection else { return }
        let split = state.withLock { state -> (done: Bool, toStart: [DownloadConnection], download: Download?)? in
            guard state.splits[attempt.downloadID] != nil, isCurrent(attempt, in: state) else { return nil }
            let (done, toStart) = segmentFinished(&state, attempt)
            return (done, toStart, state.downloads[attempt.downloadID])
        }
        if let split {
            startConnections(split.toStart)
            guard split.done, let download = split.download, let path = download.partialPath else { return }
            finishDownload(download, attempt: attempt, at: path)
        }
        let verifying = state.withLock { state -> Bool in
            guard state.verifying[ObjectIdentifier(attempt)] != nil else { return false }
            state.verifying[ObjectIdentifier(attempt)] = true
            return true
        }
        if !verifying { complete(attempt) }
    }

    /// Ends a finished attempt: complete, or failed with what `finishFile` found.
    func complete(_ attempt: DownloadConnection) {
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                let id = attempt.downloadID
                guard state.connections[id] === attempt, var download = state.downloads[id] else { return [] }
                state.endAttempt(id)
                if let failure = state.lateFailure.removeValue(forKey: id) {
                    // The received data stays in the partial file, complete: a retry checks it again
                    // (`verifyWhole`) instead of downloading it again.
                    state.downloads[id] = download
                    return failed(&state, id, .local(failure.code), failure.message)
                }
                guard state.saved.remove(id) != nil else {
                    // The load ended well but left no file (a reply whose body never began): never a
                    // success without its file.
                    return failed(&state, id, .transport(.transport), "the server's reply ended without a body to save")
                }
                if download.totalBytes < 0 { download.totalBytes = download.bytesDone }
                return markComplete(&state, download)
            })
    }

    public func connection(_ connection: Connection, didFailWithError error: ConnectionError) {
        guard let attempt = connection as? DownloadConnection else { return }
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                let id = attempt.downloadID
                if state.connections[id] !== attempt, isCurrent(attempt, in: state) {
                    return helperFailed(&state, attempt, error)
                }
                guard state.connections[id] === attempt else { return [] }
                state.endAttempt(id)
                let failure: RetryPolicy.Failure =
                    error.kind == .fileWrite
                    ? .local(ErrorCode(fileError: error.systemError)) : .transport(error.kind)
                return failed(&state, id, failure, error.descriptionWithoutURL)
            })
    }

    // MARK: - Starting over

    /// Stops the download's connections, drops its partial data and queues it again from byte
    /// zero. `refundAttempt`: the attempt that found the change does not count as a try.
    func startOver(_ state: inout State, _ id: String, reason: String?, refundAttempt: Bool) -> [DownloadConnection] {
        state.downloads[id]?.completed.removeAll()
        state.downloads[id]?.validator = nil
        return requeue(&state, id, reason: reason, refundAttempt: refundAttempt)
    }

    /// Ends the download's attempt and queues it again at once (`reason` becomes its last error).
    func requeue(_ state: inout State, _ id: String, reason: String? = nil, refundAttempt: Bool) -> [DownloadConnection]
    {
        state.endAttempt(id)?.cancel()
        guard var download = state.downloads[id] else { return [] }
        if refundAttempt { download.attempts -= 1 }
        if let reason { download.lastError = reason }
        download.state = .queued
        state.downloads[id] = download
        state.markAdmittable(id)
        emit(.changed(download))
        return admit(&state)
    }

    // MARK: - Failures

    /// Records a failed attempt: queued again after the policy's wait, or failed for good.
    /// Returns downloads admitted into the freed slot.
    func failed(
        _ state: inout State, _ id: String, _ failure: RetryPolicy.Failure, _ message: String
    ) -> [DownloadConnection] {
        guard var download = state.downloads[id] else { return [] }
        let options = download.options.merged(over: configuration.defaults)
        let policy = RetryPolicy(maxTries: options.maxTries ?? 5, fixedWait: options.retryWait.map(Double.init))
        download.lastError = message
        download.errorCode = ErrorCode(failure)
        download.failureNote = ErrorCode.note(for: failure, reason: download.response?.reasonPhrase)
        download.speed = 0
        switch policy.decide(attempt: download.attempts, failure: failure) {
        case .giveUp:
            download.state = .failed
            download.nextAttemptAt = nil
        case .retry(let seconds):
            download.state = .queued
            download.nextAttemptAt = Date(timeIntervalSinceNow: seconds)
            state.waiting.insert(id)
            timer.schedule(after: seconds) { [weak self] in self?.retryTimerFired(id) }
        }
        state.downloads[id] = download
        emit(.changed(download))
        return admit(&state)
    }

    private func retryTimerFired(_ id: String) {
        startConnections(
            state.withLock { state -> [DownloadConnection] in
                guard state.waiting.remove(id) != nil else { return [] }
                state.markAdmittable(id)
                return admit(&state)
            })
    }
}
