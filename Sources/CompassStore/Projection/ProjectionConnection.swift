import CompassCore

/// The projector's connection to its target database: statements with their failures made
/// ``StoreError``s, transactions, and a new connection when the last one was lost between
/// transactions.
final class ProjectionConnection {
    private let address: String
    private var db: PostgresConnection
    private var inTransaction = false
    /// The address as messages show it: without a password.
    var display: String { db.display }

    init(_ address: String) throws(StoreError) {
        self.address = address
        db = try Self.connect(address)
    }

    /// A new connection, told to keep its notices (`… does not exist, skipping`) to itself.
    private static func connect(_ address: String) throws(StoreError) -> PostgresConnection {
        let db = try PostgresConnection(address)
        do throws(PostgresConnection.Failure) {
            try db.run("SET client_min_messages = warning")
            // The tables are rebuilt from the log: a commit lost to a server crash is rolled back
            // with its checkpoint, and the next pass writes it again. No fsync wait per commit.
            try db.run("SET synchronous_commit = off")
        } catch {
            throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
        }
        return db
    }

    /// Runs one statement.
    @discardableResult
    func run(_ sql: String, _ values: [PostgresConnection.Value] = []) throws(StoreError) -> PostgresConnection.Rows {
        // A connection lost between transactions is made again (libpq marks it bad when a
        // statement fails on it; a transaction's statements never run on a new one).
        if !inTransaction, !db.isUp { db = try Self.connect(address) }
        do throws(PostgresConnection.Failure) {
            return try db.run(sql, values)
        } catch {
            throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
        }
    }

    /// Runs `COPY … FROM STDIN` with `data` (rows in PostgreSQL's text format).
    func copy(_ sql: String, _ data: [UInt8]) throws(StoreError) {
        do throws(PostgresConnection.Failure) {
            try db.copy(sql, data)
        } catch {
            throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws
    /// (a connection lost meanwhile rolls it back on the server).
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try run("BEGIN")
        inTransaction = true
        defer { inTransaction = false }
        do throws(StoreError) {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` holding the session-level advisory lock `key` (waiting for it).
    func holding<T>(_ key: Int64, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if !db.isUp { db = try Self.connect(address) }
        try run("SELECT pg_advisory_lock($1)", [.int(key)])
        defer { _ = try? db.run("SELECT pg_advisory_unlock($1)", [.int(key)]) }
        return try body()
    }
}
