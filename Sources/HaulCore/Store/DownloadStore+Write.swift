import Foundation
import GRDB

// MARK: - Writing

/// A checkpoint's batch written in one transaction, phase by phase: each new or changed
/// download (and the history of each that ended), the progress of the others, the removals,
/// and the queue's order.
extension DownloadStore {
    /// Writes `batch` in one transaction.
    func write(_ batch: Batch) throws(StoreError) {
        StateLockMarker.assertNotHeld("a write to the store")
        guard !batch.isEmpty else { return }
        do {
            try database.write { db in
                let now = Date().timeIntervalSince1970
                try DownloadStore.writeDownloads(batch, in: db, at: now)
                try DownloadStore.writeProgress(batch.progress, in: db, at: now)
                try DownloadStore.writeTorrentResume(batch.torrentResume, in: db)
                try DownloadStore.delete(batch.removals, in: db)
                if let order = batch.order { try DownloadStore.writeOrder(order, in: db) }
            }
        } catch {
            throw StoreError("cannot save the queue to \(path): \(error)")
        }
    }

    static let upsertSQL = """
        INSERT INTO download (id, position, uris, options, state, directory, destination, total_bytes,
                              completed, validator, attempts, last_error, updated_at, error_code,
                              failure_note)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET uris = excluded.uris, options = excluded.options,
            state = excluded.state, directory = excluded.directory,
            destination = COALESCE(excluded.destination, download.destination),
            total_bytes = excluded.total_bytes, completed = excluded.completed,
            validator = excluded.validator, attempts = excluded.attempts,
            last_error = excluded.last_error, updated_at = excluded.updated_at,
            error_code = excluded.error_code, failure_note = excluded.failure_note
        """

    /// An ending enters the history once: not when the stored row already has it. OR FAIL: an
    /// INSERT … SELECT that may abort copies every page it changes to a statement journal first,
    /// to undo only itself; this one writes one row, and a failure fails the batch.
    static let historySQL = """
        INSERT OR FAIL INTO history (download_id, uri, destination, bytes, state, error, finished_at)
        SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
        WHERE NOT EXISTS (SELECT 1 FROM download WHERE id = ?8 AND state = ?5)
        """

    /// Each new or changed download as its row, after the queue's last position; one that ended
    /// enters the history too. A download removed in the same batch keeps only its history: a
    /// run of small files added, saved and taken off the queue within one checkpoint writes no
    /// row for them at all.
    private static func writeDownloads(_ batch: Batch, in db: Database, at now: Double) throws {
        var next = try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM download").map { $0 + 1 } ?? 0
        var upsert = try BoundStatement(db, sql: upsertSQL)
        var history = try BoundStatement(db, sql: historySQL)
        // Interned options (see DownloadOptions.Interner) are turned into text once.
        var lastOptions: (options: DownloadOptions, text: String)?
        let removed = Set(batch.removals)
        for download in batch.allUpserts {
            if download.state == .complete || download.state == .failed {
                history.bind(download.id)
                history.bind(download.displayURI)
                history.bind(download.destination)
                history.bind(download.bytesDone)
                history.bind(download.state.rawValue)
                history.bind(download.lastError)
                history.bind(now)
                history.bind(key: download.id)
                try history.run()
            }
            if !removed.isEmpty, removed.contains(download.id) { continue }
            let options: String
            if let lastOptions, lastOptions.options.sharesValues(with: download.options) {
                options = lastOptions.text
            } else {
                options = DownloadStore.text(of: download.options)
                lastOptions = (download.options, options)
            }
            // Made without joining or formatting when there is nothing to join: a queue file's
            // paused entries are mostly one URI and no ranges.
            let uris = download.uris.joined(separator: "\n")
            let completed = download.completed.isEmpty ? "" : download.completed.description
            upsert.bind(key: download.id)
            upsert.bind(next)
            upsert.bind(uris)
            upsert.bind(options)
            upsert.bind(download.state.rawValue)
            upsert.bind(download.directory)
            upsert.bind(download.destination)
            upsert.bind(download.totalBytes)
            upsert.bind(completed)
            upsert.bind(download.validator)
            upsert.bind(download.attempts)
            upsert.bind(download.lastError)
            upsert.bind(now)
            upsert.bind(download.errorCode.map { Int($0.rawValue) })
            upsert.bind(download.failureNote)
            try upsert.run()
            next += 1
        }
    }

    /// The bytes and length of downloads whose row is otherwise unchanged.
    private static func writeProgress(
        _ progress: [(id: GID, progress: DownloadProgress)], in db: Database, at now: Double
    ) throws {
        guard !progress.isEmpty else { return }
        var advance = try BoundStatement(
            db, sql: "UPDATE download SET completed = ?, total_bytes = ?, updated_at = ? WHERE id = ?")
        for (id, progress) in progress {
            advance.bind(progress.completed.description)
            advance.bind(progress.totalBytes)
            advance.bind(now)
            advance.bind(key: id)
            try advance.run()
        }
    }

    /// The rows of downloads taken off the queue. A run whose downloads were all added and
    /// removed between two checkpoints stored none of them: with no row in the table, nothing is
    /// deleted one statement at a time.
    private static func delete(_ removals: [GID], in db: Database) throws {
        guard !removals.isEmpty, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM download)") == true else {
            return
        }
        var delete = try BoundStatement(db, sql: "DELETE FROM download WHERE id = ?")
        for id in removals {
            delete.bind(key: id)
            try delete.run()
        }
        // A torrent's resume data goes with it (a table read only when a torrent starts).
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM torrent_resume)") == true else { return }
        var forget = try BoundStatement(db, sql: "DELETE FROM torrent_resume WHERE id = ?")
        for id in removals {
            forget.bind(key: id)
            try forget.run()
        }
    }

    /// Each torrent's newest resume data, over what was kept.
    private static func writeTorrentResume(_ resume: [(id: GID, data: [UInt8])], in db: Database) throws {
        for (id, data) in resume {
            try db.execute(
                sql: "INSERT OR REPLACE INTO torrent_resume (id, data) VALUES (?, ?)",
                arguments: [id.storedKey, Data(data)])
        }
    }

    /// The queue's order, as positions.
    private static func writeOrder(_ order: [GID], in db: Database) throws {
        var place = try BoundStatement(db, sql: "UPDATE download SET position = ? WHERE id = ?")
        for (index, id) in order.enumerated() {
            place.bind(index)
            place.bind(key: id)
            try place.run()
        }
    }
}
