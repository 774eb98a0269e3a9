import Foundation
import GRDB
import HaulNet
import HaulText

// MARK: - DownloadStore

/// The queue on disk: SQLite through GRDB, in WAL mode, one row per download (URIs, options,
/// state, destination, completed ranges, validator) and a history of finished and failed
/// downloads. The file holds passwords a download needs to resume, so it is mode 0600 in a
/// 0700 directory.
///
/// **Threading:** every method may be called from any thread; GRDB serializes them.
public final class DownloadStore: Sendable {
    /// One finished or failed download, as the history keeps it (the URI without password).
    public struct HistoryEntry: Sendable, Equatable {
        public let downloadID: GID
        public let uri: String
        public let destination: String?
        public let bytes: Int64
        public let state: Download.State
        public let error: String?
        public let finishedAt: Date
    }

    /// A file a finished download saved, as the history remembers it.
    public struct SavedFile: Sendable, Equatable {
        public let destination: String
        public let bytes: Int64
        public let finishedAt: Date

        /// A file of `bytes` saved at `destination` when `finishedAt`.
        ///
        /// - Parameters:
        ///   - destination: The file's path.
        ///   - bytes: Its length.
        ///   - finishedAt: When the download completed.
        public init(destination: String, bytes: Int64, finishedAt: Date) {
            self.destination = destination
            self.bytes = bytes
            self.finishedAt = finishedAt
        }
    }

    /// What `load` found, and what it could not use.
    public struct Contents: Sendable {
        public var downloads: [Download] = []
        /// One line per value that could not be read back, naming the download.
        public var problems: [String] = []
    }

    /// The changes one checkpoint writes in one transaction.
    struct Batch {
        /// Downloads added, as their events carried them (not copied into one array), then new or
        /// changed ones; new ones join the end of the stored order in this order.
        var added: [[Download]] = []
        var upserts: [Download] = []
        /// Downloads whose only change is their progress: their ranges and length.
        var progress: [(id: GID, progress: DownloadProgress)] = []
        var removals: [GID] = []
        /// The queue order to store, when it changed.
        var order: [GID]?
        /// Torrents' newest resume data.
        var torrentResume: [(id: GID, data: [UInt8])] = []

        var isEmpty: Bool {
            added.isEmpty && upserts.isEmpty && progress.isEmpty && removals.isEmpty && order == nil
                && torrentResume.isEmpty
        }

        /// Every download to write, added ones first.
        var allUpserts: FlattenSequence<[[Download]]> { (added + [upserts]).joined() }
    }

    /// The database file.
    public let path: String
    let database: DatabaseQueue

    /// Opens (creating and migrating it when needed) the store at `path`.
    ///
    /// - Parameter path: The store's file (`haul.sqlite` in the state directory); made 0600 when new.
    /// - Throws: `StoreError` when the file cannot be opened, switched to write-ahead logging or
    ///   migrated to this haul's schema.
    public init(path: String) throws(StoreError) {
        self.path = path
        let isNew = DownloadStore.createsFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "haul.store"
        configuration.prepareDatabase { db in
            // A new store is made without syncs: its switch to WAL and its empty tables would
            // otherwise wait for five of them (milliseconds before a run's first download) to keep
            // nothing. The first checkpoint syncs what it made. In WAL mode NORMAL survives a
            // killed process; only a power cut may lose the last commits, and checkpoints never
            // claim bytes that were not synced.
            try db.execute(sql: "PRAGMA synchronous = \(isNew ? "OFF" : "NORMAL")")
            // 16 KiB pages for a new store (4 KiB by default): a queue file of a million is
            // written to the WAL and then the database in a quarter of the writes.
            try db.execute(sql: "PRAGMA page_size = 16384")
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw StoreError("\(path) cannot be switched to write-ahead logging")
            }
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try DownloadStore.bringUpToDate(database, isNew: isNew)
            if isNew { try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") } }
        } catch {
            throw StoreError("cannot open the store \(path): \(error)")
        }
    }

    /// Makes the store's file (mode 0600) when there is none; whether it did.
    private static func createsFile(at path: String) -> Bool {
        guard !FileManager.default.fileExists(atPath: path) else { return false }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    // MARK: - Reading

    /// Every stored download in queue order.
    ///
    /// - Returns: The downloads in queue order, and a line for each value that could not be read back
    ///   (its download is kept, without it).
    /// - Throws: `StoreError` when the store cannot be read.
    public func load() throws(StoreError) -> Contents {
        do {
            return try database.read { db in
                var contents = Contents()
                var interner = DownloadOptions.Interner()
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT id, uris, options, state, directory, destination, total_bytes, completed, validator,
                               attempts, last_error, error_code, failure_note FROM download ORDER BY position, id
                        """)
                while let row = try rows.next() {
                    var download = DownloadStore.download(from: row, problems: &contents.problems)
                    download.options = interner.intern(download.options)
                    contents.downloads.append(download)
                }
                return contents
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("cannot read the store \(path): \(error)")
        }
    }

    /// The resume data kept for torrent `id`, nil when none is.
    ///
    /// - Parameter id: The torrent's download.
    /// - Returns: libtorrent's resume data, bencoded.
    /// - Throws: `StoreError` when the store cannot be read.
    public func torrentResume(of id: GID) throws(StoreError) -> [UInt8]? {
        do {
            return try database.read { db in
                try Data.fetchOne(db, sql: "SELECT data FROM torrent_resume WHERE id = ?", arguments: [id.storedKey])
                    .map { Array($0) }
            }
        } catch {
            throw StoreError("cannot read the store \(path): \(error)")
        }
    }

    /// The newest `limit` history entries, newest first.
    ///
    /// - Parameter limit: The most entries returned.
    /// - Returns: The entries, newest first.
    /// - Throws: `StoreError` when the file cannot be read.
    public func history(limit: Int = 100) throws(StoreError) -> [HistoryEntry] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT download_id, uri, destination, bytes, state, error, finished_at
                        FROM history ORDER BY id DESC LIMIT ?
                        """, arguments: [limit]
                ).compactMap { row -> HistoryEntry? in
                    // A row whose gid cannot be read (a store edited by hand) is left out.
                    guard let id = GID.fromDatabaseValue(row[0]) else { return nil }
                    return HistoryEntry(
                        downloadID: id, uri: row[1], destination: row[2], bytes: row[3],
                        state: Download.State(rawValue: row[4]) ?? .failed, error: row[5],
                        finishedAt: Date(timeIntervalSince1970: row[6]))
                }
            }
        } catch {
            throw StoreError("cannot read the history in \(path): \(error)")
        }
    }

    /// The newest file each URI saved, by the URI as the history keeps it (`displayURI`).
    func savedFiles() throws(StoreError) -> [String: SavedFile] {
        do {
            return try database.read { db in
                var files: [String: SavedFile] = [:]
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT uri, destination, bytes, finished_at FROM history
                        WHERE state = 'complete' AND destination IS NOT NULL ORDER BY id
                        """)
                while let row = try rows.next() {
                    files[row[0]] = SavedFile(
                        destination: row[1], bytes: row[2],
                        finishedAt: Date(timeIntervalSince1970: row[3]))
                }
                return files
            }
        } catch {
            throw StoreError("cannot read the history in \(path): \(error)")
        }
    }

    private static func download(from row: Row, problems: inout [String]) -> Download {
        // Read as a raw value: GRDB traps on a value that does not convert, even as an optional.
        let stored = GID(storedKey: row[0])
        let id = stored ?? .next()
        if stored == nil { problems.append("a download stored without a readable gid was given \(id)") }
        var options = DownloadOptions()
        for line in (row[2] as String).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts[0] == nameRootKey, parts.count > 1 {
                options.nameRoot = String(parts[1])
                continue
            }
            if parts[0] == sourceKey {
                // A source not read back is the least trusted one: it keeps the user's logins away.
                options.source = parts.count > 1 ? OptionSource(key: parts[1]) ?? .remoteList : .remoteList
                continue
            }
            do {
                try options.set(String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            } catch {
                problems.append("download \(id): option \(parts[0]) ignored: \(error)")
            }
        }
        // A network client's download kept before the store kept sources: its rooted names say whose.
        if options.nameRoot != nil, options.source == nil { options.source = .networkClient }
        var download = Download(
            id: id, uris: (row[1] as String).split(separator: "\n").map(String.init), options: options)
        download.state = Download.State(rawValue: row[3]) ?? .queued
        download.directory = row[4]
        download.destination = row[5]
        // A store is a file another program may have written: a size no file has is unknown.
        download.totalBytes = FileSize.checked(row[6]) ?? -1
        if let completed = ByteRanges(parsing: row[7]) {
            download.completed = completed
        } else {
            problems.append("download \(id): its progress could not be read; it starts over")
        }
        download.validator = row[8]
        download.attempts = row[9]
        download.lastError = row[10]
        // Read as raw values, each taken only when it is what it should be.
        download.errorCode = Int32.fromDatabaseValue(row[11]).flatMap(ErrorCode.init(rawValue:))
        download.failureNote = String.fromDatabaseValue(row[12])
        return download
    }

    /// The line that keeps `DownloadOptions.nameRoot`, which no option sets: a queue file or a
    /// client that writes it is told the option is unknown.
    static let nameRootKey = "haul-name-root"

    /// The line that keeps `DownloadOptions.source`, which no option sets either.
    static let sourceKey = "haul-source"

    /// `options` as the store keeps them: a `name=value` line each, the name root and the source
    /// last.
    static func text(of options: DownloadOptions) -> String {
        var lines = options.pairs(includingSecrets: true).map { "\($0)=\($1)" }
        if let root = options.nameRoot { lines.append("\(nameRootKey)=\(root)") }
        if let source = options.source { lines.append("\(sourceKey)=\(source.key)") }
        return lines.joined(separator: "\n")
    }
}
