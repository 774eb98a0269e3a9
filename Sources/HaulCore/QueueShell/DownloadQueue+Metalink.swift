import Foundation

// MARK: - Following a Metalink

/// aria2's `--follow-metalink`: a download whose answer was `application/metalink4+xml` is
/// read when saved, and its files become downloads of their own.
extension DownloadQueue {
    /// The downloads of the files the Metalink `download` saved describes: in its directory,
    /// with its options (its name, checksum and gid aside); or why there are none.
    func followMetalink(_ download: Download) -> Result<[Download], DownloadFailure> {
        StateLockMarker.assertNotHeld("reading a Metalink")
        guard let path = download.destination, let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(DownloadFailure("the Metalink it saved cannot be read", code: .fileIO))
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Metalink.sizeLimit + 1)) ?? Data()
        let parsed: MetalinkParser.Result
        do {
            parsed = try MetalinkParser.parse(data, source: FileNaming.folderAndName(of: path).name)
        } catch {
            return .failure(DownloadFailure(error.description, code: .metalinkParse))
        }
        var inherited = download.options
        inherited.out = nil
        inherited.checksum = nil
        inherited.pieceHashes = nil
        inherited.gid = nil
        inherited.dir = FileNaming.folderAndName(of: path).folder
        return .success(
            parsed.metalink.entries(preferring: configuration.metalinkLocations).map { entry in
                var entry = entry
                entry.options = entry.options.merged(over: inherited)
                return newDownload(for: entry)
            })
    }
}
