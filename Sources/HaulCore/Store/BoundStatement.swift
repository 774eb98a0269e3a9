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
    /// The statement's parameters: a run binds every one of them, so no value of the last run
    /// is left to the next (and none is cleared: clearing them freed each text SQLite had copied,
    /// a sixth of a history row's cost).
    private let parameterCount: Int32
    private var index: Int32 = 1

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        parameterCount = sqlite3_bind_parameter_count(statement.sqliteStatement)
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

    /// Binds a number, or NULL for none.
    mutating func bind(_ number: Int?) {
        guard let number else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            index += 1
            return
        }
        bind(Int64(number))
    }

    /// Binds a gid as the history keeps it: its 16 hex digits.
    mutating func bind(_ id: GID) { bind(id.description) }

    /// Binds a gid as the download table keys it (`GID.storedKey`).
    mutating func bind(key id: GID) { bind(id.storedKey) }

    mutating func bind(_ number: Double) {
        sqlite3_bind_double(statement.sqliteStatement, index, number)
        index += 1
    }

    /// Runs the statement with the values bound since the last run, which must be all its
    /// parameters.
    mutating func run() throws(DatabaseError) {
        let sqlite = statement.sqliteStatement
        let bound = index - 1
        defer {
            sqlite3_reset(sqlite)
            index = 1
        }
        guard bound == parameterCount else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(bound) of \(parameterCount) parameters bound",
                sql: statement.sql)
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
