import CSQLite
import CSQLiteShims
import Foundation

/// One open database connection. Not thread-safe: its owner serialises the calls.
package final class SQLiteConnection {
    private let handle: OpaquePointer
    /// The database file.
    package let path: String

    /// Opens the database at `path`.
    /// - Parameters:
    ///   - create: false to fail instead of creating a missing file.
    ///   - busyTimeout: how long a call waits for another connection's lock before it fails
    ///     with `SQLITE_BUSY`.
    package init(path: String, create: Bool = true, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        var database: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if create { flags |= SQLITE_OPEN_CREATE }
        let code = SQLite.forcedFailure("sqlite3_open_v2", path: path) ?? sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let database { sqlite3_close_v2(database) }
            throw SQLiteError(code: code, call: "sqlite3_open_v2", message: message)
        }
        handle = database
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Leaves the write-ahead log for a later checkpoint when this connection closes, instead of
    /// copying it back into the database and syncing both then (three `fdatasync`s, most of a
    /// share history record's cost); the caller empties the log itself now and then. A log left
    /// behind is read, or recovered after a kill, by the next connection.
    package func leaveLogOnClose() throws {
        let code = csqlite_set_no_checkpoint_on_close(handle, 1)
        guard code == SQLITE_OK else { throw error(code, call: "sqlite3_db_config(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE)") }
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        if let forced = SQLite.forcedFailure("sqlite3_exec", path: path, sql: sql) {
            throw SQLiteError(code: forced, call: "sqlite3_exec", message: String(cString: sqlite3_errstr(forced)))
        }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), call: "sqlite3_exec", message: message)
        }
    }

    /// Compiles one statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        if let forced = SQLite.forcedFailure("sqlite3_prepare_v2", path: path, sql: sql) {
            throw SQLiteError(
                code: forced, call: "sqlite3_prepare_v2", message: String(cString: sqlite3_errstr(forced)))
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, call: "sqlite3_prepare_v2") }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// The first column of the first row of `sql`, as an integer (for `PRAGMA user_version`).
    package func integer(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.int(at: 0)
    }

    /// The first column of the first row of `sql`, as text.
    package func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock up front (waiting
    /// up to the busy timeout for it), so a reader never has to upgrade and meet `SQLITE_BUSY`,
    /// and two writers wait for each other instead of failing. Commits when `body` returns, rolls
    /// back when it throws.
    @discardableResult
    package func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT or statement may already have ended the transaction.
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id the last INSERT gave.
    package var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// The error for a failed `call`, with the connection's message.
    package func error(_ code: Int32, call: String) -> SQLiteError {
        SQLiteError(
            code: sqlite3_extended_errcode(handle), call: call, message: String(cString: sqlite3_errmsg(handle)))
    }
}
