import SQLiteStore

/// The reading list's tables, one version after another (`SQLiteSchema` applies them).
enum Schema {
    /// Every migration, in order. Never edit a released one: add the next.
    static let migrations = SQLiteSchema([
        // 1: the page and when it was added.
        SQLiteSchema.Migration(
            version: 1,
            sql: """
                CREATE TABLE items (
                    id INTEGER PRIMARY KEY,
                    url TEXT NOT NULL UNIQUE,
                    title TEXT,
                    date_added INTEGER NOT NULL
                );
                """),
        // 2: the preview text and the read flag, and newest-first listing by index.
        SQLiteSchema.Migration(
            version: 2,
            sql: """
                ALTER TABLE items ADD COLUMN preview_text TEXT;
                ALTER TABLE items ADD COLUMN is_read INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX items_by_date_added ON items (date_added DESC, id DESC);
                """),
    ])

    /// The version this build writes.
    static var currentVersion: Int { migrations.currentVersion }

    /// Brings the database to `currentVersion`. Runs inside the caller's write transaction, so a
    /// second process opening the same file at the same time waits and then finds it done.
    /// - Returns: the version the database was at.
    /// - Throws: `Schema.NewerVersion` when a later build made the file.
    @discardableResult
    static func migrate(_ connection: SQLiteConnection) throws -> Int { try migrations.migrate(connection) }

    /// The database was made by a later build whose schema this one does not know.
    typealias NewerVersion = SQLiteSchema.NewerVersion
}
