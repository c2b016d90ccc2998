import SQLiteStore

// The reading list's names for the SQLite wrapper it shares with the share history
// (`SQLiteStore`): its code and its tests say `SQLiteConnection` and `SQLite.failureHooks`.
typealias SQLite = SQLiteStore.SQLite
typealias SQLiteConnection = SQLiteStore.SQLiteConnection
typealias SQLiteStatement = SQLiteStore.SQLiteStatement
typealias SQLiteError = SQLiteStore.SQLiteError
