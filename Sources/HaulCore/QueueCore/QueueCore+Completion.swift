import HaulNet

// MARK: - Completion

/// How an attempt ends well: its body is in the partial file, the shell checks its digest and
/// gives it its final name (`QueueEffect.finishFile`), and once the connection has ended too the
/// download is complete, or failed with what finishing found. A partial file the store says is
/// whole is checked and named without asking the server again.
extension QueueCore {
    /// A connection's body is complete in the partial file: unless it is one segment of a split
    /// download (finished when every segment is), the file is finished.
    mutating func bodyDone(_ id: ConnectionID, path: String) {
        guard let attempt = state.attempts[id.downloadID], attempt.holder.id == id, attempt.split == nil,
            var download = state.downloads[id.downloadID]
        else { return }
        guard attempt.holder.unnamed else { return finishFile(id, download, at: path) }
        // A file with no name was named by the engine, marked and complete: it is saved.
        download.destination = path
        file(download)
        state.modifyAttempt(id.downloadID) { $0.saved = true }
    }

    /// Asks the shell to check and name the file; the attempt ends when both that and the load
    /// have ended.
    private mutating func finishFile(_ id: ConnectionID, _ download: Download, at path: String) {
        state.modifyAttempt(id.downloadID) { $0.finishing[id] = false }
        let replacing = state.attempts[id.downloadID]?.holder.conditionalFile != nil
        ask(
            .finishFile(
                id, download, path: path, replacing: replacing, response: state.runs[download.id]?.activity.response))
    }

    /// A connection ended well. A split's segment settles its share of the work (and may finish
    /// the file); the attempt completes unless its file is still being finished.
    mutating func finished(_ id: ConnectionID) {
        if state.split(id.downloadID) != nil, state.isCurrent(id) {
            guard segmentFinished(id), let download = state.downloads[id.downloadID], let path = download.partialPath
            else { return }
            finishFile(id, download, at: path)
        }
        if state.attempts[id.downloadID]?.finishing[id] != nil {
            state.modifyAttempt(id.downloadID) { $0.finishing[id] = true }
        } else {
            complete(id)
        }
    }

    /// What finishing the file gave: its path or why it failed, kept for the attempt's ending.
    mutating func fileFinished(_ id: ConnectionID, _ downloadID: GID, _ outcome: Result<String, DownloadFailure>) {
        var loadingEnded = false
        state.modifyAttempt(downloadID) { loadingEnded = $0.finishing.removeValue(forKey: id) ?? false }
        switch outcome {
        case .failure(let failure):
            guard state.isHolder(id) else { return }
            state.modifyAttempt(downloadID) { $0.lateFailure = failure }
        case .success(let destination):
            // The file has its name even when the attempt was stopped meanwhile.
            state.downloads[downloadID]?.destination = destination
            guard state.isHolder(id) else { return }
            state.modifyAttempt(downloadID) { $0.saved = true }
        }
        if loadingEnded { complete(id) }
    }

    /// Ends a finished attempt: complete, or failed with what finishing the file found.
    private mutating func complete(_ id: ConnectionID) {
        let downloadID = id.downloadID
        guard state.isHolder(id), var download = state.downloads[downloadID], let attempt = endAttempt(downloadID)
        else { return }
        if let failure = attempt.lateFailure {
            guard failure.badPieces.isEmpty else {
                // Only the bad pieces are dropped; the next attempt, from the next mirror,
                // fetches them again.
                state.downloads.modify(downloadID) { download in
                    for piece in failure.badPieces { download.completed.remove(piece) }
                }
                return failed(downloadID, .badPieces, failure.message)
            }
            // The received data stays in the partial file, complete: a retry checks it again
            // (`checkWhole`) instead of downloading it again.
            return failed(downloadID, .local(failure.code), failure.message)
        }
        guard attempt.saved else {
            // The load ended well but left no file (a reply whose body never began): never a
            // success without its file.
            return failed(downloadID, .transport(.transport), "the server's reply ended without a body to save")
        }
        if download.totalBytes < 0 { download.totalBytes = download.bytesDone }
        if isMetalink(download), options(of: download).followMetalink != false {
            // aria2's --follow-metalink: the saved document's files are queued, then it is done.
            state.downloads[downloadID] = download
            return ask(.followMetalink(download))
        }
        if let path = download.destination, isTorrentFile(download), options(of: download).followTorrent != false {
            // aria2's --follow-torrent: the saved .torrent is downloaded as the torrent it describes.
            add([QueueCore.torrent(describedBy: path, savedBy: download)])
        }
        markComplete(download)
    }

    /// Whether what `download` saved is a .torrent, as aria2 tells: its answer's type is
    /// `application/x-bittorrent`, or its name ends `.torrent`.
    private func isTorrentFile(_ download: Download) -> Bool {
        let type = state.runs[download.id]?.activity.response?.header("Content-Type")?.lowercased() ?? ""
        return type.hasPrefix("application/x-bittorrent") || TorrentLink.namesMetainfo(download.destination ?? "")
    }

    /// The torrent of the .torrent `download` saved at `path`: in its directory, with its options
    /// but those that named or checked the .torrent itself (`out`, `checksum`, its gid).
    static func torrent(describedBy path: String, savedBy download: Download) -> Download {
        var options = download.options
        options.out = nil
        options.checksum = nil
        options.gid = nil
        var torrent = Download(uris: [path], options: options)
        torrent.directory = download.directory
        return torrent
    }

    /// Whether what `download` saved is a Metalink, as aria2 tells: its answer's type is
    /// `application/metalink4+xml`, or its name ends `.meta4` or `.metalink`.
    private func isMetalink(_ download: Download) -> Bool {
        let type = state.runs[download.id]?.activity.response?.header("Content-Type")?.lowercased() ?? ""
        return type.hasPrefix(Metalink.mediaType) || Metalink.isMetalinkName(download.destination ?? "")
    }

    /// The files of a Metalink download `downloadID` saved are ready to queue (after it), or it
    /// could not be read: the download completes, or fails saying why.
    mutating func metalinkFollowed(_ downloadID: GID, _ outcome: Result<[Download], DownloadFailure>) {
        guard let download = state.downloads[downloadID], download.state == .active,
            state.attempts[downloadID] == nil
        else { return }
        switch outcome {
        case .failure(let failure):
            failed(downloadID, .local(failure.code), failure.message)
        case .success(let files):
            add(files)
            markComplete(download)
        }
    }

    /// What looking at a partial file recorded whole found: nil when it is not there whole
    /// (the download starts over), else the final path or why there is none.
    mutating func wholeChecked(_ downloadID: GID, _ outcome: Result<String, DownloadFailure>?) {
        guard var download = state.downloads[downloadID], download.state == .active,
            state.attempts[downloadID] == nil
        else { return }
        switch outcome {
        case nil:
            startOver(downloadID, reason: nil, refundAttempt: true)
        case .failure(let failure)?:
            failed(downloadID, .local(failure.code), failure.message)
        case .success(let destination)?:
            download.destination = destination
            markComplete(download)
        }
    }

    /// Files `download` as complete (no speed, no error), says so, and admits the next.
    mutating func markComplete(_ download: Download) {
        var download = download
        download.state = .complete
        download.lastError = nil
        file(download)
        admit()
    }
}
