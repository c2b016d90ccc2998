import CSQLite

/// A compiled statement with its parameters bound, stepped row by row.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    private let sql: String

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A value to bind to a `?` parameter.
    package enum Value {
        case text(String)
        case integer(Int)
        case real(Double)
        case null
    }

    /// Binds `values` to the parameters in order, after clearing the previous run.
    package func bind(_ values: [Value]) throws {
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
    package func step() throws -> Bool {
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
    package func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` of the current row as a double (0 for NULL).
    package func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row as text, or nil for NULL.
    package func text(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
