import GRDB
import GRDBSQLite

// MARK: - BoundStatement

/// A prepared statement run with its values bound straight through SQLite's C API: a queue of
/// a million is written without boxing thirteen values a row into GRDB's arguments.
///
/// **Threading:** used inside one GRDB write closure, on the thread GRDB runs it on.
struct BoundStatement {
    /// SQLite copies the bytes bound (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private let statement: Statement
    private var index: Int32 = 1

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
    }

    /// Binds the next parameter.
    mutating func bind(_ text: String?) {
        defer { index += 1 }
        guard var text else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        text.withUTF8 { bytes in
            // An empty text is bound from a literal: a nil pointer would bind NULL.
            guard let start = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self) else {
                _ = sqlite3_bind_text(statement.sqliteStatement, index, "", 0, BoundStatement.transient)
                return
            }
            _ = sqlite3_bind_text(statement.sqliteStatement, index, start, Int32(bytes.count), BoundStatement.transient)
        }
    }

    mutating func bind(_ number: Int64) {
        sqlite3_bind_int64(statement.sqliteStatement, index, number)
        index += 1
    }

    mutating func bind(_ number: Int) { bind(Int64(number)) }

    /// Binds a gid as the history keeps it: its 16 hex digits.
    mutating func bind(_ id: GID) { bind(id.description) }

    /// Binds a gid as the download table keys it (`GID.storedKey`).
    mutating func bind(key id: GID) { bind(id.storedKey) }

    mutating func bind(_ number: Double) {
        sqlite3_bind_double(statement.sqliteStatement, index, number)
        index += 1
    }

    /// Runs the statement with the values bound since the last run, then clears them.
    mutating func run() throws(DatabaseError) {
        let sqlite = statement.sqliteStatement
        defer {
            sqlite3_reset(sqlite)
            sqlite3_clear_bindings(sqlite)
            index = 1
        }
        var code = sqlite3_step(sqlite)
        while code == SQLITE_ROW { code = sqlite3_step(sqlite) }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqlite))),
                sql: statement.sql)
        }
    }
}
