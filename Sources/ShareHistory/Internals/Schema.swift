import SQLiteStore

/// The history's tables, one version after another. `PRAGMA user_version` holds the version a
/// database is at; opening it for a write applies every later migration in one transaction.
///
/// Targets and item kinds are rows of their own, not text in the share's row, so that the
/// suggestions (SPEC §12) can count them with `GROUP BY` instead of parsing.
enum Schema {
    /// Every migration, in order. Never edit a released one: add the next.
    static let migrations = SQLiteSchema([
        // 1: the share, what it sent (kinds and counts, never contents) and to whom.
        SQLiteSchema.Migration(
            version: 1,
            sql: """
                CREATE TABLE shares (
                    id INTEGER PRIMARY KEY,
                    time INTEGER NOT NULL,
                    activity_type TEXT NOT NULL,
                    activity TEXT NOT NULL,
                    item_count INTEGER NOT NULL,
                    disposition TEXT NOT NULL
                );
                CREATE INDEX shares_by_time ON shares (time DESC, id DESC);
                CREATE TABLE share_items (
                    share_id INTEGER NOT NULL REFERENCES shares (id),
                    kind TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (share_id, kind)
                ) WITHOUT ROWID;
                CREATE TABLE share_targets (
                    share_id INTEGER NOT NULL REFERENCES shares (id),
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    value TEXT NOT NULL,
                    name TEXT,
                    PRIMARY KEY (share_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX share_targets_by_value ON share_targets (value);
                """)
    ])

    /// The version this build writes.
    static var currentVersion: Int { migrations.currentVersion }

    /// Brings the database to `currentVersion`, inside the caller's write transaction.
    /// - Throws: `Schema.NewerVersion` when a later build made the file.
    static func migrate(_ connection: SQLiteConnection) throws { try migrations.migrate(connection) }

    /// The database was made by a later build whose schema this one does not know.
    typealias NewerVersion = SQLiteSchema.NewerVersion
}
