import CSQLite
import CSQLiteShims
import Foundation

/// A failed SQLite call: the result code, the call that returned it and SQLite's message.
///
/// The history's own small wrapper: the reading list keeps its wrapper internal to its module,
/// and the history needs only opening, statements and transactions.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_NOTADB`, `SQLITE_CORRUPT`…).
    var code: Int32
    /// The C function that failed (`sqlite3_open_v2`, `sqlite3_step`).
    var call: String
    /// SQLite's own words for it.
    var message: String

    /// True when the file is not a database or its pages do not hold together: the history
    /// sets such a file aside and starts again, instead of failing every share.
    var meansCorruptFile: Bool { code & 0xff == SQLITE_NOTADB || code & 0xff == SQLITE_CORRUPT }

    var description: String { "\(message) (\(call), code \(code))" }

    /// A check of our own that found damage, as SQLite says damage (`SQLITE_CORRUPT`).
    static func corrupt(call: String, message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, call: call, message: message)
    }
}

/// One open database connection. Not thread-safe: its owner serialises the calls.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// The database file.
    let path: String

    /// Opens the database at `path`, creating it when `create` is true.
    init(path: String, create: Bool, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        var database: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if create { flags |= SQLITE_OPEN_CREATE }
        let code = sqlite3_open_v2(path, &database, flags, nil)
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

    /// Leaves the write-ahead log for a later checkpoint when this connection closes, instead of
    /// copying it back into the database and syncing both then (three `fdatasync`s, most of a
    /// record's cost); the history empties the log every few shares instead. A log left behind is
    /// read, or recovered after a kill, by the next connection.
    func leaveLogOnClose() throws {
        let code = csqlite_set_no_checkpoint_on_close(handle, 1)
        guard code == SQLITE_OK else { throw error(code, call: "sqlite3_db_config(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE)") }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), call: "sqlite3_exec", message: message)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, call: "sqlite3_prepare_v2") }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The first column of the first row of `sql`, as an integer (for `PRAGMA user_version`).
    func integer(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.int(at: 0)
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock up front, so
    /// two shares ending at once wait for each other instead of failing with `SQLITE_BUSY`.
    /// Commits when `body` returns, rolls back when it throws.
    @discardableResult
    func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
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
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id the last INSERT gave.
    var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// The error for a failed `call`, with the connection's message.
    func error(_ code: Int32, call: String) -> SQLiteError {
        SQLiteError(
            code: sqlite3_extended_errcode(handle), call: call, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A compiled statement with its parameters bound, stepped row by row.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A value to bind to a `?` parameter.
    enum Value {
        case text(String)
        case integer(Int)
        case null
    }

    /// Tells SQLite to copy bound text at once (`SQLITE_TRANSIENT`, a macro Swift cannot import).
    private static let transient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)

    /// Binds `values` to the parameters in order, after clearing the previous run.
    func bind(_ values: [Value]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, Int64(number))
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw connection.error(code, call: "sqlite3_bind") }
        }
    }

    /// Steps once: true when a row is ready to read, false when the statement is done.
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, call: "sqlite3_step")
        }
    }

    /// Column `index` of the current row as an integer (0 for NULL).
    func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` of the current row as text, or nil for NULL.
    func text(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
