import Foundation
import GRDB
import Testing

@testable import HaulCore

/// Stores made by earlier hauls: each is brought to the newest schema when opened, keeping what
/// it holds, and a row edited by hand never stops it from opening.
@Suite("Store migrations")
struct StoreMigrationTests {
    /// The download table as the first schema made it: keyed by the gid's hex digits.
    private static let textKeyedDownloadTable = """
        DROP TABLE download;
        CREATE TABLE download (
            id TEXT PRIMARY KEY NOT NULL, position INTEGER NOT NULL, uris TEXT NOT NULL, options TEXT NOT NULL,
            state TEXT NOT NULL, directory TEXT, destination TEXT, total_bytes INTEGER NOT NULL,
            completed TEXT NOT NULL, validator TEXT, attempts INTEGER NOT NULL, last_error TEXT,
            updated_at REAL NOT NULL);
        CREATE INDEX download_position ON download(position);
        """

    /// A download row of the first schema: `id` at `position`, paused.
    private static func insertTextKeyed(_ id: String, at position: Int, uri: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO download VALUES (?, ?, ?, 'pause=true', 'paused', NULL, NULL, -1, '', NULL, 0, NULL, 0)
                """, arguments: [id, position, uri])
    }

    @Test("a store made before history rows were keyed by rowid keeps them, their ids and order, and adds to them")
    func historyMigration() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        // A store as the first schema left it (its history keyed with AUTOINCREMENT), with three
        // finished downloads and a row edited by hand in each table (its gid unreadable: left
        // out of the history, given a new gid in the queue, never a crash).
        let old = try DatabaseQueue(path: path)
        try DownloadStore.migrator.migrate(old, upTo: "v1: downloads and history")
        try old.write { db in
            try db.execute(
                sql: """
                    DROP TABLE history;
                    CREATE TABLE history (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, download_id TEXT NOT NULL, uri TEXT NOT NULL,
                        destination TEXT, bytes INTEGER NOT NULL, state TEXT NOT NULL, error TEXT,
                        finished_at REAL NOT NULL);
                    """ + StoreMigrationTests.textKeyedDownloadTable)
            for number in 1...3 {
                try db.execute(
                    sql: """
                        INSERT INTO history (download_id, uri, destination, bytes, state, error, finished_at)
                        VALUES (?, ?, NULL, 1, 'complete', NULL, ?)
                        """,
                    arguments: [
                        number == 2 ? "edited" : "000000000000000\(number)", "http://x/\(number)", Double(number),
                    ])
            }
            try StoreMigrationTests.insertTextKeyed("edited", at: 0, uri: "http://x/d", in: db)
        }
        try old.close()
        let store = try DownloadStore(path: path)
        let loaded = try store.load()
        #expect(loaded.downloads.map(\.uris) == [["http://x/d"]])
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        var download = Download(uris: ["https://user:secret@example.com/a.iso"])
        download.state = .complete
        try store.write(.init(upserts: [download]))
        let history = try store.history()
        #expect(history.map(\.uri) == ["https://user:***@example.com/a.iso", "http://x/3", "http://x/1"])
        let schema = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'history'")
        }
        #expect(schema?.contains("AUTOINCREMENT") == false, "\(schema ?? "")")
        let ids = try DatabaseQueue(path: path).read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM history ORDER BY id")
        }
        #expect(ids == [1, 2, 3, 4])
    }

    @Test("a store keying downloads by gid text keeps each gid and place; an unreadable or repeated one is new")
    func downloadKeyMigration() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        let first: GID = "2089b05ecca3d829"
        let last: GID = "ffffffffffffff01"
        let old = try DatabaseQueue(path: path)
        try DownloadStore.migrator.migrate(old, upTo: "v2: history keyed by rowid")
        try old.write { db in
            try db.execute(sql: StoreMigrationTests.textKeyedDownloadTable)
            try StoreMigrationTests.insertTextKeyed(last.description, at: 3, uri: "http://x/last", in: db)
            try StoreMigrationTests.insertTextKeyed("edited by hand", at: 1, uri: "http://x/edited", in: db)
            try StoreMigrationTests.insertTextKeyed(first.description, at: 0, uri: "http://x/first", in: db)
            try StoreMigrationTests.insertTextKeyed(
                first.description.uppercased(), at: 2, uri: "http://x/again", in: db)
        }
        try old.close()

        let store = try DownloadStore(path: path)
        let loaded = try store.load()
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(
            loaded.downloads.map(\.uris) == [
                ["http://x/first"], ["http://x/edited"], ["http://x/again"], ["http://x/last"],
            ])
        let ids = loaded.downloads.map(\.id)
        // A gid above 2^63 is kept too: it is stored as the same 64 bits, read back unsigned.
        #expect(ids.first == first && ids.last == last)
        #expect(Set(ids).count == 4, "\(ids)")
        #expect(loaded.downloads.allSatisfy { $0.state == .paused && $0.options.pause == true })

        // The table is keyed by the gid's number now, with its index of positions and nothing
        // left of the copy; a later write changes the migrated row in place.
        let tables = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE tbl_name LIKE 'download%'")
        }
        #expect(Set(tables.map { $0["name"] as String }) == ["download", "download_position"])
        #expect(tables.contains { ($0["sql"] as String?)?.contains("id INTEGER PRIMARY KEY") == true })
        var finished = try #require(loaded.downloads.first)
        finished.state = .complete
        try store.write(.init(upserts: [finished]))
        #expect(try store.load().downloads.map(\.state) == [.complete, .paused, .paused, .paused])
    }
}
