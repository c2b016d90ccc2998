import CSQLite

/// A failed SQLite call: the result code, the call that returned it and SQLite's message.
package struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_NOTADB`…).
    package var code: Int32
    /// The C function that failed, with what it worked on (`sqlite3_open_v2`, `sqlite3_step`).
    package var call: String
    /// SQLite's own words for it.
    package var message: String

    /// Describes a failure.
    package init(code: Int32, call: String, message: String) {
        self.code = code
        self.call = call
        self.message = message
    }

    /// True when another connection held the lock for longer than the busy timeout.
    package var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }

    /// True when the file is not a database or its pages do not hold together: a store may set
    /// such a file aside and start again, instead of failing every call.
    package var meansCorruptFile: Bool { code & 0xff == SQLITE_NOTADB || code & 0xff == SQLITE_CORRUPT }

    package var description: String { "\(message) (\(call), code \(code))" }

    /// A check of the caller's own that found damage, as SQLite says damage (`SQLITE_CORRUPT`).
    package static func corrupt(call: String, message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, call: call, message: message)
    }
}
