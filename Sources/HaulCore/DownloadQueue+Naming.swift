import Foundation
import HaulNet

// MARK: - Naming

/// The file a download's body goes to. Runs on `callbackQueue` (so two downloads are never
/// named at once) and outside the queue's lock: it reads the directory, may create it, records
/// the name in the store, and creates the partial file.
extension DownloadQueue {
    /// Chooses the destination on the first response (the file a conditional request asked
    /// about, else the user's `out`, else the response's name, sanitized, made unique unless
    /// `auto-file-renaming=false`) and creates the partial file, which reserves the name.
    func reserveName(
        for download: Download, response: Response, replacing existing: String?
    ) throws(DownloadFailure) -> String {
        StateLockMarker.assertNotHeld("naming a file")
        if let destination = download.destination,
            FileManager.default.fileExists(atPath: destination + FileNaming.partialSuffix)
        {
            return destination
        }
        let options = download.options.merged(over: configuration.defaults)
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
        let partial = destination + FileNaming.partialSuffix
        let folder = (destination as NSString).deletingLastPathComponent
        if !createdDirectories.withLock({ $0.contains(folder) }) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw DownloadFailure(
                    "cannot create directory \(folder): \(error.localizedDescription)",
                    code: .cannotCreateDirectory)
            }
            createdDirectories.withLock { _ = $0.insert(folder) }
        }
        var named = download
        named.destination = destination
        journal?.recordDestination(of: named)
        // O_EXCL: the name is this download's only if no one else created it first.
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
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

    /// Whether the partial file of `destination` still holds the first `offset` bytes a resumed
    /// body continues from.
    func partialHolds(_ destination: String, upTo offset: Int64) -> Bool {
        StateLockMarker.assertNotHeld("reading a partial file's size")
        var status = stat()
        return lstat(destination + FileNaming.partialSuffix, &status) == 0 && Int64(status.st_size) >= offset
    }
}
