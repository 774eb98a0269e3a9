import Foundation
import HaulNet

// MARK: - Files

/// The file work the core asks for, run by the shell on `callbackQueue` (so two downloads are
/// never named at once) and outside the lock: naming and creating the partial file, checking a
/// digest, giving a file its final name, looking at a partial file.
extension DownloadQueue {
    /// Chooses the destination on the first response (the file a conditional request asked
    /// about, else the user's `out`, else the response's name, sanitized, made unique unless
    /// `auto-file-renaming=false`) and creates the partial file, which reserves the name.
    func reserveName(
        for download: Download, response: Response, replacing existing: String?
    ) throws(DownloadFailure) -> String {
        StateLockMarker.assertNotHeld("naming a file")
        let options = download.options.merged(over: configuration.defaults)
        if let destination = download.destination,
            FileManager.default.fileExists(atPath: FileNaming.partialPath(of: destination))
        {
            let (folder, name) = FileNaming.folderAndName(of: destination)
            try makeFolder(folder, named: name, for: options)
            partFileNames.hold(destination)
            return destination
        }
        let name = options.out ?? FileNaming.name(for: response)
        let directory = download.directory ?? configuration.directory
        let overwrite = options.allowOverwrite ?? false
        if existing == nil, !overwrite, options.autoFileRenaming == false {
            let path = FileNaming.path(for: name, in: directory)
            if FileNaming.isTaken(path) {
                throw DownloadFailure(
                    "\(path) already exists: set allow-overwrite=true to replace it, "
                        + "or auto-file-renaming=true to save under a new name", code: .fileExists)
            }
        }
        let destination = existing ?? FileNaming.uniqueDestination(for: name, in: directory, allowOverwrite: overwrite)
        let partial = FileNaming.partialPath(of: destination)
        let (folder, fileName) = FileNaming.folderAndName(of: destination)
        try makeFolder(folder, named: fileName, for: options)
        var named = download
        named.destination = destination
        journal?.recordDestination(of: named)
        partFileNames.hold(destination)
        // O_EXCL: the name is this download's only if no one else created it first.
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, download.fileMode)
        guard descriptor >= 0 else {
            let number = errno
            // Whatever is at that path is not this download's.
            throw DownloadFailure(
                "cannot create \(partial): \(String(cString: strerror(number)))",
                code: ErrorCode(fileError: number, otherwise: .cannotCreateFile))
        }
        close(descriptor)
        return destination
    }

    /// Makes `folder` for a file named `name` (when known) of a download with `options`: a
    /// folder a network client chose is made and checked now, below its root (`NameGate`),
    /// every time; the user's own (and its parents) unless this queue made it already and it is
    /// still there (a user tidying up may have removed it since).
    func makeFolder(_ folder: String, named name: String?, for options: DownloadOptions) throws(DownloadFailure) {
        if let root = options.nameRoot {
            if let failure = NameGate.openFolder(folder, named: name, below: root) {
                throw DownloadFailure("refused: \(failure)", code: .cannotCreateFile)
            }
            return
        }
        var status = stat()
        if createdDirectories.withLock({ $0.contains(folder) }), stat(folder, &status) == 0 { return }
        if let failure = PosixFile.makeDirectories(folder) {
            throw DownloadFailure("cannot create directory \(folder): \(failure)", code: .cannotCreateDirectory)
        }
        createdDirectories.withLock { _ = $0.insert(folder) }
    }

    /// Whether the partial file of `destination` still holds the first `offset` bytes a resumed
    /// body continues from.
    func partialHolds(_ destination: String, upTo offset: Int64) -> Bool {
        StateLockMarker.assertNotHeld("reading a partial file's size")
        var status = stat()
        return lstat(FileNaming.partialPath(of: destination), &status) == 0 && Int64(status.st_size) >= offset
    }

    /// Whether the partial file of a download recorded whole is there, a regular file of the
    /// whole length.
    static func isWhole(_ download: Download) -> Bool {
        StateLockMarker.assertNotHeld("reading a partial file's size")
        var status = stat()
        guard let partial = download.partialPath, lstat(partial, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG && Int64(status.st_size) == download.totalBytes
    }

    /// The size of the file at `path` (0 when it cannot be read).
    static func size(of path: String) -> Int64 {
        StateLockMarker.assertNotHeld("reading a file's size")
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64) ?? 0
    }

    /// Hashes the file at `path` (`total` bytes) piece by piece, then whole: nil when both match;
    /// bad pieces are named (to be fetched again); a whole-file mismatch keeps the data in the
    /// partial file and says so.
    static func check(
        _ path: String, total: Int64, pieces: PieceHashes?, whole expected: ExpectedChecksum?
    ) -> DownloadFailure? {
        if let pieces, pieces.fit(total) {
            do {
                let bad = try pieces.badPieces(ofFileAt: path, total: total)
                if !bad.isEmpty {
                    let bytes = bad.reduce(Int64(0)) { $0 + Int64($1.count) }
                    return DownloadFailure(
                        "\(bad.count) of \(pieces.hashes.count) pieces failed their \(pieces.algorithm.rawValue) "
                            + "digest (\(ByteCount.format(bytes))): they were discarded, the rest of the file kept",
                        code: .checksumMismatch, badPieces: bad)
                }
            } catch {
                return DownloadFailure("\(error)", code: .fileIO)
            }
        }
        guard let expected else { return nil }
        do {
            let actual = try Checksum.digest(ofFileAt: path, algorithm: expected.algorithm)
            guard actual != expected.hex else { return nil }
            return DownloadFailure(
                "checksum mismatch: expected \(expected), got \(expected.algorithm.rawValue)=\(actual); "
                    + "the data is kept in \(path): correct the digest and retry to check it again "
                    + "without downloading, or delete it to download again",
                code: .checksumMismatch)
        } catch {
            return DownloadFailure("\(error)", code: .fileIO)
        }
    }

    /// Gives a verified file its final name (and, as its options ask, the server's
    /// Last-Modified as its mtime, and its ETag for the next conditional get), and marks it.
    /// Returns the path it got, or why it has none.
    func nameFile(
        _ download: Download, at path: String, failure: DownloadFailure?, replacing: Bool, response: ResponseSummary?
    ) -> Result<String, DownloadFailure> {
        if let failure { return .failure(failure) }
        guard let destination = download.destination else {
            return .failure(DownloadFailure("the download has no file name", code: .unknown))
        }
        let options = download.options.merged(over: configuration.defaults)
        let named: String
        do {
            named = try FileNaming.moveIntoPlace(
                path, to: destination, replacing: replacing || options.allowOverwrite == true)
        } catch {
            return .failure(DownloadFailure(error.description, code: .renameFailed))
        }
        partFileNames.release(destination)
        partFileNames.saved(named)
        let validators = ConditionalGet.Validators(response)
        if options.remoteTime == true { ConditionalGet.applyRemoteTime(validators.lastModified, to: named) }
        if options.conditionalGet == true { ConditionalGet.rememberEntityTag(validators.entityTag, of: named) }
        if options.continueExisting == true {
            // aria2's progress record of the file this download continued: it is whole now.
            unlink(destination + Aria2ControlFile.suffix)
        }
        SavedFileMark.mark(
            named, uri: download.displayURI, gid: download.id,
            lastModified: validators.lastModified.flatMap(HTTPDate.parse))
        return .success(named)
    }
}
