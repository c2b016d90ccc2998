import CSQLite
import ShareSheet

/// The one place that calls the SQLite C library for the reading list and the share history:
/// every call goes through a function of `SQLiteConnection` or `SQLiteStatement`, which checks
/// the result code and turns a failure into an `SQLiteError`. `package`, not `public`: the
/// stores' files are their API, not this wrapper.
package enum SQLite {
    #if DEBUG
        /// Lets tests watch calls on one database file and make them fail: given the call's name and
        /// the SQL it runs (if any), a hook returns a result code to fail with instead of calling
        /// SQLite, or nil to go ahead. Keyed by the database's path, so tests in parallel keep apart.
        package static let failureHooks = Locked<[String: @Sendable (_ call: String, _ sql: String?) -> Int32?]>([:])
    #endif

    /// The result code a test wants `call` to fail with, if any.
    static func forcedFailure(_ call: String, path: String, sql: String? = nil) -> Int32? {
        #if DEBUG
            if let hook = failureHooks.withLock({ $0[path] }) { return hook(call, sql) }
        #endif
        return nil
    }

    /// SQLite's library version (`3.40.1`).
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Tells SQLite to copy bound text and blobs at once (`SQLITE_TRANSIENT`, a macro Swift
    /// cannot import).
    static let transient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
}
