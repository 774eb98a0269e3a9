import HaulNet

// MARK: - Pieces

/// A split download with piece hashes (a Metalink's `<pieces>`) has each segment's pieces
/// checked as the segment ends: a bad piece is dropped from what the file holds, its mirror is
/// dropped (while another is usable), and a free connection fetches it again from another. The
/// whole file is checked piece by piece again when it is complete (`QueueEffect.finishFile`).
extension QueueCore {
    /// Asks for the pieces a finished segment wrote to be hashed, when the download has piece
    /// hashes that fit it.
    mutating func verifyPieces(of segment: Split.Segment, _ download: Download) {
        guard let pieces = options(of: download).pieceHashes, pieces.fit(download.totalBytes),
            let path = download.partialPath
        else { return }
        let written = segment.start..<min(segment.start + segment.written, segment.end)
        guard !written.isEmpty else { return }
        ask(
            .verifyPieces(
                downloadID: download.id, path: path, pieces, total: download.totalBytes, range: written,
                mirror: segment.mirror))
    }

    /// The pieces `bad` of download `id`, written from `mirror`, failed their hash: they are no
    /// longer held, the mirror is dropped while another is usable (and taken off the download's
    /// URIs, so that no later attempt, nor a later run, goes back to it), and a connection that
    /// is free fetches them again. Once no segment runs, the check of the whole file sees to them.
    mutating func piecesVerified(_ id: GID, bad: [Range<Int64>], mirror: Int) {
        guard !bad.isEmpty, var split = state.split(id), !split.segments.isEmpty,
            state.downloads[id]?.state == .active
        else { return }
        state.downloads.modify(id) { download in
            for piece in bad { download.completed.remove(piece) }
        }
        if split.dropped[mirror] == nil,
            split.mirrors.indices.contains(where: { $0 != mirror && split.dropped[$0] == nil })
        {
            let reason = "sent \(bad.count) piece\(bad.count == 1 ? "" : "s") that failed the Metalink's hash"
            split.dropped[mirror] = reason
            show(id, .mirrorDropped("\(split.mirrorLabels[mirror]): \(reason)"))
            let uri = split.mirrorURIs[mirror]
            state.downloads.modify(id) { download in
                if download.uris.count > 1 { download.uris = URIList(download.uris.filter { $0 != uri }) }
            }
        }
        guard let download = state.downloads[id] else { return }
        file(download)
        newWork(&split, download, preferring: nil)
        state.setSplit(id, split)
        shareSpeedLimit(id)
    }
}
