import Foundation
import HaulNet

// MARK: - Naming

/// Where an accepted body goes once the shell has named its file: into the partial file,
/// from its offset, bounded to its segment when the file is split; or, for a small whole body,
/// into a file with no name that the engine names when it is complete.
extension QueueCore {
    /// Files the name the accepted answer's body goes under, and makes the connection a
    /// download into the partial file (or a file with no name, when `unnamed`). An attempt
    /// paused or cancelled while its file was named is told to stop; the name stays the
    /// download's, for its next attempt.
    mutating func write(
        _ request: NameRequest, named: Result<String, DownloadFailure>, holdsOffset: Bool, unnamed: Bool
    ) {
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
        // A file with no name has its name only when complete (`bodyDone`); a later run finds
        // it by its mark. A partial file's name is the download's from now on.
        if !unnamed { download.destination = destination }
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
        let (offset, total) = (request.offset, request.total)
        if unnamed {
            writesUnnamed(id, &download, offset: offset, total: total, validator: request.response.validator)
            let (directory, name) = FileNaming.folderAndName(of: destination)
            return ask(
                .writeUnnamed(
                    id,
                    UnnamedWrite(
                        download: download, directory: directory, name: name,
                        spillAfter: request.spillAfter,
                        validators: ConditionalGet.Validators(state.runs[downloadID]?.activity.response))))
        }
        // Mirrors and a digest the server names (RFC 6249) serve the split and the check.
        MetalinkHTTP.adopt(request.response, into: &download)
        startsWriting(&download, offset: offset, total: total, validator: request.response.validator)
        state.modifyAttempt(downloadID) { $0.holder.bodyOffset = offset }
        let partial = FileNaming.partialPath(of: destination)
        if let end = planSplit(download, primary: id, request, offset: offset, total: total) {
            let target = DownloadTarget(path: partial, offset: offset, end: end, keepsTail: true, mustExist: true)
            return ask(.answer(id, .becomeDownload(target)))
        }
        ask(.answer(id, .becomeDownload(DownloadTarget(path: partial, offset: offset, mustExist: true))))
    }

    /// Files `download` as its accepted body starts (`Download.startsBody`).
    private mutating func startsWriting(_ download: inout Download, offset: Int64, total: Int64, validator: String?) {
        download.startsBody(at: offset, of: total, validator: validator)
        state.runs[download.id, default: DownloadRun()].resumableHere = validator == nil && total > 0
        file(download)
    }

    /// `startsWriting`, for a body that goes to a file with no name.
    mutating func writesUnnamed(
        _ id: ConnectionID, _ download: inout Download, offset: Int64, total: Int64, validator: String?
    ) {
        startsWriting(&download, offset: offset, total: total, validator: validator)
        state.modifyAttempt(id.downloadID) { attempt in
            attempt.holder.unnamed = true
            attempt.holder.bodyOffset = offset
        }
    }

    /// A body of unknown length grew past the limit of a file with no name and is now the
    /// partial file at `path`: the download goes on as an ordinary one into it.
    mutating func spilled(_ id: ConnectionID, path: String) {
        guard let holder = state.attempts[id.downloadID]?.holder, holder.id == id, holder.unnamed,
            var download = state.downloads[id.downloadID]
        else { return }
        state.modifyAttempt(id.downloadID) { $0.holder.unnamed = false }
        download.destination = String(path.dropLast(FileNaming.partialSuffix.count))
        file(download)
    }
}
