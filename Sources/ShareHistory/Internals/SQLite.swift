import SQLiteStore

// The history's names for the SQLite wrapper it shares with the reading list (`SQLiteStore`).
typealias SQLiteConnection = SQLiteStore.SQLiteConnection
typealias SQLiteStatement = SQLiteStore.SQLiteStatement
typealias SQLiteError = SQLiteStore.SQLiteError
