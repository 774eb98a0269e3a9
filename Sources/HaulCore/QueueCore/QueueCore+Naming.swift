import HaulNet

// MARK: - Naming

/// Where an accepted body goes once the shell has named its file: into the partial file,
/// from its offset, bounded to its segment when the file is split.
extension QueueCore {
    /// Files the name the accepted answer's body goes under, and makes the connection a
    /// download into the partial file. An attempt paused or cancelled while its file was named
    /// is told to stop; the name stays the download's, for its next attempt.
    mutating func write(_ request: NameRequest, named: Result<String, DownloadFailure>, holdsOffset: Bool) {
        let id = request.connection
        let downloadID = id.downloadID
        guard var download = state.downloads[downloadID] else { return ask(.answer(id, .cancel)) }
        let destination: String
        switch named {
        case .failure(let failure):
            ask(.answer(id, .cancel))
            guard state.isHolder(id) else { return }
            endAttempt(downloadID)
            return failed(downloadID, .local(failure.code), failure.message)
        case .success(let path):
            destination = path
        }
        download.destination = destination
        guard state.isHolder(id) else {
            state.downloads[downloadID] = download
            return ask(.answer(id, .cancel))
        }
        guard holdsOffset else {
            // The partial file lost bytes the store counted (truncated, or replaced): a body
            // written after them would leave a hole. Start the file over.
            state.downloads[downloadID] = download
            ask(.answer(id, .cancel))
            return startOver(downloadID, reason: nil, refundAttempt: true)
        }
        // A body from byte 0 replaces the whole file; a resumed one continues what is there.
        let (offset, total) = (request.offset, request.total)
        if offset == 0 { download.completed.removeAll() }
        download.totalBytes = total
        download.validator = request.response.validator
        file(download)
        let partial = destination + FileNaming.partialSuffix
        if let end = planSplit(download, primary: id, request, offset: offset, total: total) {
            let target = DownloadTarget(path: partial, offset: offset, end: end, keepsTail: true, mustExist: true)
            return ask(.answer(id, .becomeDownload(target)))
        }
        ask(.answer(id, .becomeDownload(DownloadTarget(path: partial, offset: offset, mustExist: true))))
    }
}
