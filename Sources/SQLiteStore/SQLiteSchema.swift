/// A store's tables, one version after another. `PRAGMA user_version` holds the version a
/// database is at; `migrate` applies every later migration inside the caller's write
/// transaction, so a second process opening the same file at the same time waits and then finds
/// it done.
package struct SQLiteSchema: Sendable {
    /// One step from the version before it to `version`.
    package struct Migration: Sendable {
        package var version: Int
        package var sql: String

        /// Describes a step.
        package init(version: Int, sql: String) {
            self.version = version
            self.sql = sql
        }
    }

    /// The database was made by a later build whose schema this one does not know.
    package struct NewerVersion: Error {
        package var found: Int
    }

    /// Every migration, in order. Never edit a released one: add the next.
    package let migrations: [Migration]

    /// The migrations of a store.
    package init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// The version this build writes.
    package var currentVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database to `currentVersion`, inside the caller's write transaction.
    /// - Returns: the version the database was at.
    /// - Throws: `NewerVersion` when a later build made the file.
    @discardableResult
    package func migrate(_ connection: SQLiteConnection) throws -> Int {
        let found = try connection.integer("PRAGMA user_version")
        guard found <= currentVersion else { throw NewerVersion(found: found) }
        for migration in migrations where migration.version > found {
            try connection.execute(migration.sql)
        }
        if found < currentVersion { try connection.execute("PRAGMA user_version = \(currentVersion)") }
        return found
    }
}
