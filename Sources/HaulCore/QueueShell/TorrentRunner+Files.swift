import Foundation
import HaulTorrent

// MARK: - A torrent's files

extension TorrentRunner {
    /// The bytes of the .torrent at `path`, refused past `TorrentMetainfo.longest`.
    static func readMetainfo(at path: String) throws(DownloadFailure) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DownloadFailure("cannot read the torrent \(path): \(String(cString: strerror(errno)))", code: .fileIO)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: TorrentMetainfo.longest + 1) ?? Data()
        } catch {
            throw DownloadFailure("cannot read the torrent \(path): \(error.localizedDescription)", code: .fileIO)
        }
        guard data.count <= TorrentMetainfo.longest else {
            throw DownloadFailure(
                "the torrent \(path) is over \(TorrentMetainfo.longest / 1_000_000) MB, more than libtorrent reads",
                code: .torrentParse)
        }
        return Array(data)
    }

    /// `files` through the name gate, saved in `directory`: their renames, or why they are refused.
    static func gate(_ files: [TorrentFile], in directory: String) throws(DownloadFailure) -> TorrentNames {
        let names = try TorrentNames.check(files).get()
        if let refusal = names.linkRefusal(in: directory) { throw refusal }
        return names
    }

    /// A priority per file for `selection` (aria2's `select-file`, counting the files from 1,
    /// pad files aside): 4 for those selected, 0 for the rest; empty when all are wanted.
    static func priorities(of files: [TorrentFile], _ selection: FileSelection?) -> [UInt8] {
        guard let selection else { return [] }
        var number = 0
        return files.map { file in
            guard !file.isPad else { return 0 }
            number += 1
            return selection.contains(number) ? 4 : 0
        }
    }

    /// Where `plan`'s torrent is saved and how many of its bytes are wanted.
    static func naming(_ names: TorrentNames, files: [TorrentFile], plan: TorrentPlan) -> TorrentNaming {
        var number = 0
        var wanted: Int64 = 0
        for file in files where !file.isPad {
            number += 1
            if plan.options.selectFile?.contains(number) ?? true { wanted = wanted.adding(saturating: file.size) }
        }
        return TorrentNaming(destination: plan.directory + "/" + names.top, wanted: wanted)
    }
}
