import Foundation
import HaulCore

// MARK: - TorrentArguments

/// .torrent files named as aria2c names them (`-T`), whatever their names end in; a path that
/// ends in `.torrent` given as a URL works too.
struct TorrentArguments {
    var files: [String] = []

    static let options: [OptionSpec<TorrentArguments>] = [
        .value(
            "torrent-file", short: "T", "file", repeatable: true,
            help: "Download the torrent this .torrent file describes (repeatable; a path ending in .torrent "
                + "given as a URL works too)."
        ) { $0.files.append($1) }
    ]

    /// The files' absolute paths (a relative one from the current directory), each checked to
    /// be a readable file.
    ///
    /// - Throws: `UsageError` naming a file that is not one.
    func paths() throws -> [String] {
        let here = FileManager.default.currentDirectoryPath
        return try files.map { file in
            let path = NameGate.lexical(file.hasPrefix("/") ? file : here + "/" + file)
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else {
                throw UsageError("-T/--torrent-file '\(file)' is not a readable file")
            }
            return path
        }
    }
}
