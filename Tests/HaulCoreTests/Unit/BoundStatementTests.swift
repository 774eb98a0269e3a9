import GRDB
import Testing

@testable import HaulCore

/// The store's rows are written through `BoundStatement`, which binds values straight through
/// SQLite and leaves the last run's values in place for the next to replace: every run must
/// bind every parameter, and each row gets its own values, a missing one included.
@Suite("Bound statements")
struct BoundStatementTests {
    /// A table of rows, and `body` given the statement that inserts them; returns the table.
    private static func inserting(_ body: (inout BoundStatement) throws -> Void) throws -> DatabaseQueue {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY, name TEXT, size REAL)")
            var insert = try BoundStatement(db, sql: "INSERT INTO row (id, name, size) VALUES (?, ?, ?)")
            try body(&insert)
        }
        return database
    }

    /// Inserts one whole row through `insert`.
    private static func run(_ insert: inout BoundStatement, _ id: Int, _ name: String?, _ size: Double) throws {
        insert.bind(id)
        insert.bind(name)
        insert.bind(size)
        try insert.run()
    }

    @Test("each run writes its own values: a text bound as nil after a text is NULL, not the last run's")
    func eachRunItsOwnValues() throws {
        let database = try Self.inserting { insert in
            try Self.run(&insert, 1, "first", 1.5)
            try Self.run(&insert, 2, nil, 2.5)
            try Self.run(&insert, 3, "", 3.5)
        }
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, size FROM row ORDER BY id").map {
                ($0["id"] as Int, $0["name"] as String?, $0["size"] as Double)
            }
        }
        #expect(rows.map(\.0) == [1, 2, 3])
        #expect(rows.map(\.1) == ["first", nil, ""])
        #expect(rows.map(\.2) == [1.5, 2.5, 3.5])
    }

    @Test("a run with a parameter left unbound fails, naming how many were bound, and writes nothing")
    func unboundParameterFails() throws {
        let database = try Self.inserting { insert in
            try Self.run(&insert, 1, "first", 1.5)
            insert.bind(2)
            insert.bind("second")
            let error = #expect(throws: DatabaseError.self) { try insert.run() }
            #expect(error?.message == "2 of 3 parameters bound")
            // The statement is ready for a whole run again.
            try Self.run(&insert, 3, "third", 3.5)
        }
        let ids = try database.read { try Int.fetchAll($0, sql: "SELECT id FROM row ORDER BY id") }
        #expect(ids == [1, 3])
    }
}
