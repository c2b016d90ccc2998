import CSQLite
import Foundation
import ShareSheet

/// A failed SQLite call: the result code, the call that returned it and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`…).
    var code: Int32
    /// The C function that failed, with what it worked on (`sqlite3_open_v2`, `sqlite3_step`).
    var call: String
    /// SQLite's own words for it.
    var message: String

    /// True when another connection held the lock for longer than the busy timeout.
    var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }

    var description: String { "\(message) (\(call), code \(code))" }
}

/// The one place that calls the SQLite C library: every call goes through a function here,
/// which checks the result code and turns a failure into an `SQLiteError`.
enum SQLite {
    #if DEBUG
        /// Lets tests watch calls on one database file and make them fail: given the call's name and
        /// the SQL it runs (if any), a hook returns a result code to fail with instead of calling
        /// SQLite, or nil to go ahead. Keyed by the database's path, so tests in parallel keep apart.
        static let failureHooks = Locked<[String: @Sendable (_ call: String, _ sql: String?) -> Int32?]>([:])
    #endif

    /// The result code a test wants `call` to fail with, if any.
    static func forcedFailure(_ call: String, path: String, sql: String? = nil) -> Int32? {
        #if DEBUG
            if let hook = failureHooks.withLock({ $0[path] }) { return hook(call, sql) }
        #endif
        return nil
    }

    /// SQLite's library version (`3.40.1`).
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Tells SQLite to copy bound text and blobs at once (`SQLITE_TRANSIENT`, a macro Swift
    /// cannot import).
    static let transient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
}

/// One open database connection. Not thread-safe: its owner serialises the calls.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// The database file.
    let path: String

    /// Opens (creating when missing) the database at `path`.
    /// - Parameter busyTimeout: how long a call waits for another connection's lock before it
    ///   fails with `SQLITE_BUSY`.
    init(path: String, busyTimeout: Duration) throws {
        self.path = path
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
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

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
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
    func prepare(_ sql: String) throws -> SQLiteStatement {
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

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` takes the write lock up front (waiting
    /// up to the busy timeout for it), so a reader never has to upgrade and meet `SQLITE_BUSY`.
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
    private let sql: String

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A value to bind to a `?` parameter.
    enum Value {
        case text(String)
        case integer(Int)
        case real(Double)
        case null
    }

    /// Binds `values` to the parameters in order, after clearing the previous run.
    func bind(_ values: [Value]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, SQLite.transient)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, Int64(number))
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw connection.error(code, call: "sqlite3_bind") }
        }
    }

    /// Steps once: true when a row is ready to read, false when the statement is done.
    @discardableResult
    func step() throws -> Bool {
        if let forced = SQLite.forcedFailure("sqlite3_step", path: connection.path, sql: sql) {
            throw SQLiteError(code: forced, call: "sqlite3_step", message: String(cString: sqlite3_errstr(forced)))
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, call: "sqlite3_step")
        }
    }

    /// Column `index` of the current row as an integer (0 for NULL).
    func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` of the current row as a double (0 for NULL).
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row as text, or nil for NULL.
    func text(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
