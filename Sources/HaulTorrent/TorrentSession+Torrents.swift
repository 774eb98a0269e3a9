import CTorrent
import Foundation

// MARK: - Adding and steering torrents

extension TorrentSession {
    /// Adds a torrent; its events carry `addition.key` from now on.
    ///
    /// - Parameter addition: The torrent and how to run it.
    /// - Throws: `TorrentError.refused` with libtorrent's reason (a metainfo it cannot read, a
    ///   torrent already in the session, a peer address that is not one).
    public func add(_ addition: TorrentAddition) throws(TorrentError) {
        guard let session else { throw .refused("the BitTorrent session is closed") }
        var error = [CChar](repeating: 0, count: 512)
        let plain = PlainAddition(addition)
        guard haul_ts_add(session, &plain.params, &error, error.count) else { throw .refused(String(cBuffer: error)) }
    }

    /// Removes a torrent (and its files, when `deletingFiles`); `TorrentEvent.removed` follows.
    public func remove(_ key: UInt64, deletingFiles: Bool = false) {
        guard let session else { return }
        haul_ts_remove(session, key, deletingFiles)
    }

    public func pause(_ key: UInt64) {
        guard let session else { return }
        haul_ts_pause(session, key)
    }

    public func resume(_ key: UInt64) {
        guard let session else { return }
        haul_ts_resume(session, key)
    }

    /// Sets each file's priority (0 skips it, 1–7).
    public func prioritize(_ key: UInt64, files priorities: [UInt8]) {
        guard let session else { return }
        priorities.withUnsafeBufferPointer { haul_ts_prioritize_files(session, key, $0.baseAddress, $0.count) }
    }

    /// A torrent's own rate limits (bytes a second, 0: none) and its peer connections (0: the
    /// session's).
    public func setLimits(_ key: UInt64, download: Int, upload: Int, maxConnections: Int) {
        guard let session else { return }
        haul_ts_set_limits(
            session, key, Int32(clamping: download), Int32(clamping: upload), Int32(clamping: maxConnections))
    }

    /// Connects a torrent to more peers (`host:port`; those that are not addresses are skipped).
    public func connect(_ key: UInt64, to peers: [String]) {
        guard let session else { return }
        withCStrings(peers) { haul_ts_connect_peers(session, key, $0, peers.count) }
    }

    /// Saves file `index` under `path` (relative to the save path) instead of the metainfo's.
    public func rename(_ key: UInt64, file index: Int, to path: String) {
        guard let session else { return }
        haul_ts_rename_file(session, key, Int32(clamping: index), path)
    }

    /// Lets a torrent added with `hold` download.
    public func release(_ key: UInt64) {
        guard let session else { return }
        haul_ts_release(session, key)
    }

    /// Asks for a torrent's resume data: `TorrentEvent.resumeData` follows (or `.failed` when it
    /// cannot be made); with `onlyIfChanged`, nothing follows when nothing changed since the last.
    public func saveResumeData(_ key: UInt64, onlyIfChanged: Bool = false) {
        guard let session else { return }
        haul_ts_save_resume(session, key, onlyIfChanged)
    }
}

/// Calls `body` with `strings` as an array of C strings, which live for the call.
func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress) }
}
