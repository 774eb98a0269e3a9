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
        try DownloadStore.migrator.migrate(old, upTo: DownloadStore.migrations.v1)
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
        try DownloadStore.migrator.migrate(old, upTo: DownloadStore.migrations.v2)
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

    @Test("a store made before failures kept their code and note gains both; a failed row keeps its reason")
    func failureNoteMigration() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        let old = try DatabaseQueue(path: path)
        try DownloadStore.migrator.migrate(old, upTo: DownloadStore.migrations.v3)
        try old.write { db in
            try db.execute(
                sql: """
                    DROP TABLE download;
                    CREATE TABLE download (
                        id INTEGER PRIMARY KEY, position INTEGER NOT NULL, uris TEXT NOT NULL, options TEXT NOT NULL,
                        state TEXT NOT NULL, directory TEXT, destination TEXT, total_bytes INTEGER NOT NULL,
                        completed TEXT NOT NULL, validator TEXT, attempts INTEGER NOT NULL, last_error TEXT,
                        updated_at REAL NOT NULL);
                    CREATE INDEX download_position ON download(position);
                    INSERT INTO download VALUES (7, 0, 'http://x/old', '', 'failed', NULL, NULL, -1, '', NULL, 1,
                                                 'the server answered 404 Not Found', 0);
                    """)
        }
        try old.close()

        let store = try DownloadStore(path: path)
        let loaded = try store.load()
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.downloads.map(\.lastError) == ["the server answered 404 Not Found"])
        #expect(loaded.downloads.first?.failureNote == nil)
        var failed = Download(uris: ["http://x/new"])
        failed.state = .failed
        failed.lastError = "the server answered 404 Not Found"
        failed.errorCode = .notFound
        failed.failureNote = "404 Not Found"
        try store.write(.init(upserts: [failed]))
        let reopened = try DownloadStore(path: path).load().downloads.last
        #expect(reopened?.errorCode == .notFound && reopened?.failureNote == "404 Not Found")
    }

    /// The tables, indexes and recorded migrations of the store at `path`, and its `user_version`.
    private static func schema(at path: String) throws -> (definitions: [String], applied: [String], version: Int) {
        try DatabaseQueue(path: path).read { db in
            (
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1
            )
        }
    }

    @Test("a new store is made as the migrator makes one, its migrations recorded for an older haul")
    func newStoreMatchesMigrator() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = directory.appendingPathComponent("new.sqlite").path
        let migrated = directory.appendingPathComponent("migrated.sqlite").path
        _ = try DownloadStore(path: made)
        let old = try DatabaseQueue(path: migrated)
        try DownloadStore.migrator.migrate(old)
        try old.close()

        let new = try StoreMigrationTests.schema(at: made)
        let reference = try StoreMigrationTests.schema(at: migrated)
        #expect(new.definitions == reference.definitions)
        #expect(new.applied == reference.applied)
        #expect(new.version == DownloadStore.schemaVersion)
        // The migrator finds nothing left to do in it.
        #expect(try DatabaseQueue(path: made).read { try DownloadStore.migrator.hasCompletedMigrations($0) })
    }

    @Test("a store an older haul migrated is marked with the schema version; a marked one opens as it is")
    func versionMarked() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        let old = try DatabaseQueue(path: path)
        try DownloadStore.migrator.migrate(old)
        try old.close()
        #expect(try StoreMigrationTests.schema(at: path).version == 0)

        let store = try DownloadStore(path: path)
        try store.write(.init(upserts: [Download(uris: ["http://x/a"])]))
        #expect(try StoreMigrationTests.schema(at: path).version == DownloadStore.schemaVersion)
        let reopened = try DownloadStore(path: path)
        #expect(try reopened.load().downloads.map(\.uris) == [["http://x/a"]])
    }

    @Test("a store whose file was made but not its tables (a run killed as it began) is made when opened")
    func emptyFileMigrated() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("haul.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let store = try DownloadStore(path: path)
        try store.write(.init(upserts: [Download(uris: ["http://x/a"])]))
        #expect(try store.load().downloads.count == 1)
        #expect(try StoreMigrationTests.schema(at: path).version == DownloadStore.schemaVersion)
    }
}
