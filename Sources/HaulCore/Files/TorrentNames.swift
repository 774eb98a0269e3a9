import Foundation
import HaulTorrent

// MARK: - TorrentNames

/// A torrent's files through the name gate (`NameGate`): every part of every path is one the
/// gate would let a server choose (no `..`, no leading dot, nothing a terminal acts on; a part
/// that is not one is made one, and the file saved under the new path), no file is a symbolic
/// link (BEP 47's), and no two files end up at one path. The torrent's file (or folder) lands in
/// the download's directory and is no link there. libtorrent drops `..` and absolute paths
/// itself; this gate is haul's, the same for a torrent as for a server's Content-Disposition.
struct TorrentNames: Equatable {
    /// Files saved under another path than the metainfo's, by index.
    let renamed: [Int: String]
    /// The torrent's file (one file) or folder, in the download's directory.
    let top: String

    /// The gate's verdict on `files` (a torrent's, in the metainfo's order), or why they are refused.
    ///
    /// - Parameter files: The files as libtorrent read them.
    /// - Returns: The renames the gate made, and the name of the torrent's top file or folder.
    static func check(_ files: [TorrentFile]) -> Result<TorrentNames, DownloadFailure> {
        var renamed: [Int: String] = [:]
        var seen = Set<String>()
        var top: String?
        for (index, file) in files.enumerated() where !file.isPad {
            guard !file.isSymlink else {
                return .failure(refusal("it makes '\(visible(file.path))' a symbolic link, which haul does not follow"))
            }
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            var gated: [String] = []
            for part in parts {
                guard let name = NameGate.serverName(part) else {
                    return .failure(refusal("'\(visible(file.path))' has a part that cannot be a file name"))
                }
                gated.append(name)
            }
            guard let first = gated.first else { return .failure(refusal("a file has no name")) }
            if let top, top != first {
                return .failure(refusal("its files are not all in one folder ('\(top)', '\(first)')"))
            }
            top = first
            let path = gated.joined(separator: "/")
            guard seen.insert(path.lowercased()).inserted else {
                return .failure(refusal("two of its files would be saved as '\(path)'"))
            }
            if gated != parts || parts.joined(separator: "/") != file.path { renamed[index] = path }
        }
        guard let top else { return .failure(refusal("it has no files")) }
        return .success(TorrentNames(renamed: renamed, top: top))
    }

    /// Why the torrent is not saved, as a download's failure.
    private static func refusal(_ reason: String) -> DownloadFailure {
        DownloadFailure("the torrent is refused: \(reason)", code: .torrentParse)
    }

    /// `path` as a message may show it: what a terminal would act on made visible.
    private static func visible(_ path: String) -> String {
        TextSanitizer.visible(path)
    }

    /// Why the torrent's top file or folder in `directory` may not be written: it is a symbolic
    /// link (made meanwhile, or there all along), or nil.
    ///
    /// - Parameter directory: The download's directory.
    /// - Returns: The failure, or nil when nothing there is a link.
    func linkRefusal(in directory: String) -> DownloadFailure? {
        var status = stat()
        let path = directory + "/" + top
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return nil }
        return DownloadFailure(
            "the torrent is refused: '\(TorrentNames.visible(path))' is a symbolic link, which haul does not "
                + "write through", code: .torrentParse)
    }
}
