import Foundation

// MARK: - Following a Metalink

/// aria2's `--follow-metalink`: a download whose answer was `application/metalink4+xml` is
/// read when saved, and its files become downloads of their own.
extension DownloadQueue {
    /// The downloads of the files the Metalink `download` saved describes: in its directory,
    /// with its options (its name, checksum and gid aside); or why there are none.
    func followMetalink(_ download: Download) -> Result<[Download], DownloadFailure> {
        StateLockMarker.assertNotHeld("reading a Metalink")
        guard let path = download.destination else {
            return .failure(DownloadFailure("the Metalink it saved has no name", code: .fileIO))
        }
        let (folder, name) = FileNaming.folderAndName(of: path)
        let parsed: MetalinkParser.Result
        do {
            parsed = try MetalinkParser.parse(contentsOf: path, source: name)
        } catch {
            return .failure(DownloadFailure(error.description, code: .metalinkParse))
        }
        var inherited = download.options
        inherited.dir = folder
        var merger = DownloadOptions.Merger(over: configuration.defaults)
        return .success(
            parsed.metalink.entries(
                preferring: configuration.metalinkLocations, inheriting: inherited, fromServer: true
            ).map { newDownload(for: $0, merger: &merger) }
        )
    }
}
