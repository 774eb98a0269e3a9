import GRDB

// MARK: - DownloadStore schema

extension DownloadStore {
    /// The schema's version, kept in the store's `user_version` once it is reached: a store at
    /// it opens without the migrator.
    static let schemaVersion = 5

    /// The migrations' names, as GRDB's migrator records them in `grdb_migrations`.
    static let migrations = (
        v1: "v1: downloads and history", v2: "v2: history keyed by rowid",
        v3: "v3: downloads keyed by their gid's number", v4: "v4: a failure's code and note",
        v5: "v5: torrents' resume data"
    )

    /// Brings the store in `database` to the newest schema.
    /// - A new store is made at it in one transaction, its migrations recorded as GRDB's migrator
    ///   records them, so an older haul finds them applied.
    /// - A store at `schemaVersion` (or a newer haul's) is left as it is.
    /// - Any other (an older haul's, or a new one whose run ended before its tables were made)
    ///   goes through the migrator, then is marked with `schemaVersion`.
    ///
    /// The migrator is kept off the common paths: setting up its generic types on first use was
    /// most of the work of opening a store, before a run's first download.
    static func bringUpToDate(_ database: DatabaseQueue, isNew: Bool) throws {
        if isNew {
            try database.write { db in
                try makeTables(in: db)
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                try db.execute(
                    sql: "INSERT INTO grdb_migrations VALUES (?), (?), (?), (?), (?)",
                    arguments: [migrations.v1, migrations.v2, migrations.v3, migrations.v4, migrations.v5])
                try db.execute(sql: markCurrent)
            }
            return
        }
        let version = try database.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } ?? 0
        guard version < schemaVersion else { return }
        try migrator.migrate(database)
        try database.writeWithoutTransaction { try $0.execute(sql: markCurrent) }
    }

    /// Marks a store as at `schemaVersion`.
    private static let markCurrent = "PRAGMA user_version = \(schemaVersion)"

    /// Makes the newest schema's tables and index in an empty store: the first migration, and a
    /// new store's whole schema.
    private static func makeTables(in db: Database) throws {
        try db.execute(sql: downloadTable(named: "download"))
        try db.execute(sql: positionIndex)
        try db.execute(sql: historyTable(named: "history"))
        try db.execute(sql: torrentResumeTable)
    }

    /// Every schema version, oldest first; a store from any earlier haul is brought up to date.
    /// A new store is made at the newest schema by the first migration, and the later ones find
    /// nothing to change in it. The schema has no foreign keys, so a migration runs without
    /// GRDB's default deferred check of them (turning them off, `foreign_key_check`, turning
    /// them on again).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(migrations.v1, foreignKeyChecks: .immediate) { db in try makeTables(in: db) }
        // Stores made before it keyed history rows with AUTOINCREMENT. The rows are never
        // deleted, so their ids never come back anyway, and it cost a write to sqlite_sequence
        // with every row (a sixth of a row's work in SQLite). Such a table is
        // made again, each row keeping its id and order.
        migrator.registerMigration(migrations.v2, foreignKeyChecks: .immediate) { db in
            guard try definition(of: "history", in: db).contains("AUTOINCREMENT") else { return }
            try db.execute(sql: historyTable(named: "history_v2"))
            try db.execute(
                sql: """
                    INSERT INTO history_v2 SELECT id, download_id, uri, destination, bytes, state, error, finished_at
                        FROM history;
                    DROP TABLE history;
                    ALTER TABLE history_v2 RENAME TO history;
                    """)
        }
        // Stores made before it keyed a download by its gid's 16 hex digits, which took an index
        // of its own beside the table (a million paused entries take a fifth less room, and
        // some 0.4 s less to store them). Such a table is made again, each download keeping its
        // gid (as its number) and place; one whose gid text cannot be read (a store edited by
        // hand) or names a gid another row took already (in other letters' case) gets a new gid.
        migrator.registerMigration(migrations.v3, foreignKeyChecks: .immediate) { db in
            guard try definition(of: "download", in: db).contains("id TEXT") else { return }
            // A gid read from its text, else a new one: GID.next() counts atomically.
            let key = DatabaseFunction("haul_gid_key", argumentCount: 1, pure: false) { values in
                (String.fromDatabaseValue(values[0]).flatMap { GID($0) } ?? GID.next()).storedKey
            }
            db.add(function: key)
            try db.execute(sql: downloadTable(named: "download_v3"))
            try db.execute(
                sql: """
                    INSERT INTO download_v3 (id, position, uris, options, state, directory, destination,
                                             total_bytes, completed, validator, attempts, last_error, updated_at)
                        SELECT haul_gid_key(
                                   CASE WHEN ROW_NUMBER() OVER (PARTITION BY lower(id) ORDER BY rowid) = 1
                                   THEN id END),
                               position, uris, options, state, directory, destination,
                               total_bytes, completed, validator, attempts, last_error, updated_at
                        FROM download ORDER BY position, rowid;
                    DROP TABLE download;
                    ALTER TABLE download_v3 RENAME TO download;
                    """)
            try db.execute(sql: positionIndex)
            db.remove(function: key)
        }
        // Stores made before it kept a failure's words (`last_error`) but not its aria2 code or
        // the row's note (`404 Not Found`): after a restart a failed row said only "failed".
        migrator.registerMigration(migrations.v4, foreignKeyChecks: .immediate) { db in
            guard !(try definition(of: "download", in: db).contains("failure_note")) else { return }
            try db.execute(sql: "ALTER TABLE download ADD COLUMN error_code INTEGER")
            try db.execute(sql: "ALTER TABLE download ADD COLUMN failure_note TEXT")
        }
        // Stores made before it had no torrents.
        migrator.registerMigration(migrations.v5, foreignKeyChecks: .immediate) { db in
            guard try definition(of: "torrent_resume", in: db).isEmpty else { return }
            try db.execute(sql: torrentResumeTable)
        }
        return migrator
    }

    /// The SQL a table `name` was made with.
    private static func definition(of name: String, in db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name]) ?? ""
    }

    /// The download table's definition, made as `name`. A download is keyed by its gid's 64
    /// bits (`GID.storedKey`): the table's own rowid, so no second index is kept beside it, and
    /// the sequential gids of a queue file are added at its end.
    private static func downloadTable(named name: String) -> String {
        """
        CREATE TABLE \(name) (
            id INTEGER PRIMARY KEY,
            position INTEGER NOT NULL,
            uris TEXT NOT NULL,
            options TEXT NOT NULL,
            state TEXT NOT NULL,
            directory TEXT,
            destination TEXT,
            total_bytes INTEGER NOT NULL,
            completed TEXT NOT NULL,
            validator TEXT,
            attempts INTEGER NOT NULL,
            last_error TEXT,
            updated_at REAL NOT NULL,
            error_code INTEGER,
            failure_note TEXT
        )
        """
    }

    /// The index the stored queue order is read back by.
    private static let positionIndex = "CREATE INDEX download_position ON download(position);"

    /// libtorrent's resume data of each torrent (bencoded): what was checked, its metadata (a
    /// magnet link's), its peers. Keyed by the download's gid, as `download` is.
    private static let torrentResumeTable = """
        CREATE TABLE torrent_resume (
            id INTEGER PRIMARY KEY,
            data BLOB NOT NULL
        )
        """

    /// The history table's definition, made as `name`.
    private static func historyTable(named name: String) -> String {
        """
        CREATE TABLE \(name) (
            id INTEGER PRIMARY KEY,
            download_id TEXT NOT NULL,
            uri TEXT NOT NULL,
            destination TEXT,
            bytes INTEGER NOT NULL,
            state TEXT NOT NULL,
            error TEXT,
            finished_at REAL NOT NULL
        )
        """
    }
}
