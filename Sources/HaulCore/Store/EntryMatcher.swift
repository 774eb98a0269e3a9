import Foundation

// MARK: - EntryMatcher

/// What each queue-file entry is: the stored download of an earlier run it continues (same
/// URIs, options and directory), or a new download, complete when an earlier run saved its file
/// or continuing a file another tool left when it says `continue=true`. Used for one pass over
/// a queue file's entries: the store's history and each directory's listing are read once.
///
/// **Threading:** a value, on the thread that reads the queue file.
struct EntryMatcher {
    private let queue: DownloadQueue
    private let store: DownloadStore
    /// Every download still in the store belongs to a run that did not end: completed ones too
    /// (a run killed after a file was saved), which stay complete rather than being fetched
    /// again under a new name. By their URIs.
    private var earlier: [String: [Download]] = [:]
    /// The stored downloads entries continued.
    private(set) var named = Set<GID>()
    /// The files the history remembers, read when the first entry new to the queue has a
    /// directory with something in it.
    private var saved: [String: DownloadStore.SavedFile]?
    private var listings = DirectoryListings()
    private var merger: DownloadOptions.Merger

    init(stored: [Download], queue: DownloadQueue, store: DownloadStore) {
        self.queue = queue
        self.store = store
        merger = DownloadOptions.Merger(over: queue.configuration.defaults)
        for download in stored {
            earlier[download.uris.joined(separator: "\t"), default: []].append(download)
        }
    }

    /// The download `entry` asks for: a stored one continued, else a new one; files found on
    /// disk go into `continuation`.
    mutating func match(_ entry: QueueEntry, noting continuation: inout StoredQueue.Continuation) -> Download {
        var fresh = queue.newDownload(for: entry, merger: &merger)
        // No key is made when nothing is stored (a first run of a long queue file).
        let key = earlier.isEmpty ? nil : entry.uris.joined(separator: "\t")
        guard let key,
            let index = earlier[key]?.firstIndex(where: { EntryMatcher.continues($0, fresh, entry) }),
            var download = earlier[key]?.remove(at: index)
        else {
            notice(filesOf: &fresh, noting: &continuation)
            return fresh
        }
        named.insert(download.id)
        // The options are this command's (a corrected digest among them: the file kept after a
        // mismatch is checked against it without downloading again); the gid stays.
        let gid = download.options.gid
        download.options = fresh.options
        download.options.gid = gid
        if download.losesPartialDataOnRestart { continuation.startingOver.append(download) }
        if ![.queued, .active, .complete].contains(download.state) {
            download.state = fresh.state
            download.attempts = 0
            download.lastError = nil
        }
        return download
    }

    /// What a new download finds on disk: the file an earlier run saved (then it is complete),
    /// or under `continue=true` a file another tool left unfinished (then it continues it);
    /// without `continue=true` such a file is noted as one `-c` would continue. Overwriting and
    /// conditional gets ask the server instead. A torrent's files are checked by its engine.
    private mutating func notice(filesOf fresh: inout Download, noting continuation: inout StoredQueue.Continuation) {
        guard fresh.torrentLink == nil else { return }
        // Nothing to find in a directory that is empty or not there: a file the history
        // remembers for this download is in it (its `out` cannot leave it). So a run into a new
        // directory never reads the history, which grows with every file ever saved.
        guard let directory = fresh.directory, !listings.isEmpty(directory) else { return }
        let defaults = queue.configuration.defaults
        let out = fresh.options.out ?? defaults.out
        guard (fresh.options.allowOverwrite ?? defaults.allowOverwrite) != true,
            (fresh.options.conditionalGet ?? defaults.conditionalGet) != true
        else { return }
        // The name `fresh` would be saved as, worked out once for every check below, and looked
        // at only when its directory lists it (one listing for a million entries, not a million
        // calls).
        let expected = fresh.uris.first.flatMap { FileNaming.expectedName(out: out, uri: $0) }
            .flatMap { listings.contains($0, in: directory) ? FileNaming.path(for: $0, in: directory) : nil }
        if let file = savedFile(for: fresh, history: history(of: fresh), out: out, in: directory, expected: expected) {
            fresh.state = .complete
            fresh.destination = file.destination
            fresh.totalBytes = file.bytes
            fresh.completed = ByteRanges(file.bytes > 0 ? [0..<file.bytes] : [])
            return
        }
        guard let path = expected else { return }
        let asked = (fresh.options.continueExisting ?? defaults.continueExisting) == true
        // aria2c continues a file whose control file is beside it, `-c` or not; so does haul.
        let controlled = !asked && FileManager.default.fileExists(atPath: path + Aria2ControlFile.suffix)
        guard asked || controlled else {
            if FileManager.default.fileExists(atPath: path) { continuation.continuable.append(path) }
            return
        }
        do {
            guard let unfinished = try UnfinishedFile.find(at: path), asked || unfinished.source == .aria2ControlFile
            else { return }
            try unfinished.continueAs(&fresh)
            // Its control file goes once the file is whole, as with `-c`.
            if controlled { fresh.options.continueExisting = true }
            continuation.unfinished.append(unfinished)
        } catch {
            continuation.problems.append("\(error); it is downloaded again beside it")
        }
    }

    /// The newest file the history remembers for `download`'s URI; the history is read at the
    /// first asking, once.
    private mutating func history(of download: Download) -> DownloadStore.SavedFile? {
        let saved = self.saved ?? ((try? store.savedFiles()) ?? [:])
        self.saved = saved
        return saved.isEmpty ? nil : saved[download.displayURI]
    }

    /// The file an earlier run saved for `fresh`'s URI, when it is still that download,
    /// complete, as `wget -c` and `aria2c -c` see it: the file the history names, in the same
    /// place (its `out`, or its directory), a regular file of the size saved and not changed
    /// since; else the file `fresh` would be saved as (its `out`, else the URL's name) when
    /// its mark (`SavedFileMark`) says it came from that URI unchanged, as after a run whose
    /// store could not be written. `expected` is that file's path.
    private func savedFile(
        for fresh: Download, history: DownloadStore.SavedFile?, out: String?,
        in directory: String, expected: String?
    ) -> DownloadStore.SavedFile? {
        if let history, isStillSaved(history, out: out, in: directory) { return history }
        // The mark is read only from a regular file of the size and mtime it records.
        guard let path = expected, let size = SavedFileMark.savedSize(of: path, uri: fresh.displayURI) else {
            return nil
        }
        return DownloadStore.SavedFile(destination: path, bytes: size, finishedAt: Date())
    }

    /// Whether the file the history names is in the place `out` and `directory` say, of the
    /// size saved and unchanged since it was saved.
    private func isStillSaved(_ file: DownloadStore.SavedFile, out: String?, in directory: String) -> Bool {
        if let out {
            guard file.destination == FileNaming.path(for: out, in: directory) else { return false }
        } else {
            guard FileNaming.folderAndName(of: file.destination).folder == directory else { return false }
        }
        var status = stat()
        guard lstat(file.destination, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            Int64(status.st_size) == file.bytes
        else { return false }
        // Modified after it was saved (a second of slack for the clocks' rounding): changed.
        return Double(status.st_mtim.tv_sec) <= file.finishedAt.timeIntervalSince1970 + 1
    }

    /// Whether `fresh` asks for the stored download `earlier`: the same directory and options,
    /// but for the checksum, which a rerun may correct.
    /// Whether `earlier` is the download `entry` (made as `fresh`) asks for again: the same
    /// directory and gid, and every option the entry sets itself kept by `earlier`. The run's
    /// options (the command line's) may differ: they are the command's, and the continued
    /// download takes the new ones. A corrected digest is the entry's, and a gid in the options
    /// of a download an earlier version stored was its own, not an option it was made with.
    private static func continues(_ earlier: Download, _ fresh: Download, _ entry: QueueEntry) -> Bool {
        guard earlier.directory == fresh.directory, entry.gid == nil || earlier.id == entry.gid else { return false }
        if earlier.options == fresh.options { return true }
        var own = entry.options.values
        (own.checksum, own.gid) = (nil, nil)
        let kept = earlier.options.values
        return DownloadOptionTable.all.allSatisfy { option in
            let wanted = option.texts(own, true)
            guard !wanted.isEmpty else { return true }
            let held = option.texts(kept, true)
            return option.isRepeatable ? wanted.allSatisfy(held.contains) : wanted == held
        }
    }
}
