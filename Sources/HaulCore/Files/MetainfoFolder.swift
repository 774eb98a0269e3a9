import Foundation
import HaulNet

// MARK: - MetainfoFolder

/// Where the daemon keeps the .torrent files clients upload (`aria2.addTorrent`): a folder of
/// the state directory, mode 0700, each file named by its info hash and mode 0600. A torrent
/// download names its file there, so it is read again after a restart.
///
/// **Threading:** any thread; writes are atomic renames.
public struct MetainfoFolder: Sendable {
    public let path: String

    /// - Parameter path: The folder; made, mode 0700, at the first `keep`.
    public init(path: String) {
        self.path = path
    }

    /// Writes `bytes`, a .torrent already read, as `<infoHash>.torrent` and returns its path.
    ///
    /// - Parameters:
    ///   - bytes: The metainfo.
    ///   - infoHash: Its info hash, in hex digits (libtorrent's).
    /// - Returns: The file's path.
    /// - Throws: `StoreError` naming the file and why it could not be written.
    public func keep(_ bytes: [UInt8], infoHash: String) throws(StoreError) -> String {
        guard !infoHash.isEmpty, infoHash.utf8.allSatisfy({ Character(UnicodeScalar($0)).isHexDigit }) else {
            throw StoreError("a torrent's info hash '\(infoHash)' is not hex digits")
        }
        if let failure = PosixFile.makeDirectories(path, mode: 0o700) {
            throw StoreError("cannot make the folder \(path) for uploaded torrents: \(failure)")
        }
        let file = path + "/" + infoHash.lowercased() + ".torrent"
        if let failure = PosixFile.replace(file, mode: 0o600, writing: { PosixFile.writeAll(bytes, to: $0) }) {
            throw StoreError("cannot keep the uploaded torrent as \(file): \(failure)")
        }
        return file
    }
}
