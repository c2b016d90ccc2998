import Foundation
import ReadingList
import Testing

/// The store meets the real `sqlite3` shell: what another program on the machine would see.
@Suite("The reading list in the sqlite3 shell")
struct SQLiteShellTests {
    @Test("sqlite3 reads the rows: URL, title, preview, date added and read flag, in WAL mode")
    func shellReadsRows() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let first = try list.addItem(
            url: URL(string: "https://swift.org/documentation/")!, title: "Swift | Documentation",
            previewText: "Guides, \"quotes\" and 'apostrophes'\nover two lines")
        try list.addItem(url: URL(string: "http://example.com/ünïcode?q=a%20b#frag")!, title: "Ünïcode ✓")
        try list.markRead(url: first.url)

        let rows = try await sqlite3(
            folder.database,
            "SELECT url, coalesce(title, ''), coalesce(preview_text, ''), date_added, is_read FROM items ORDER BY id",
            options: ["-json"], in: folder)
        let decoded = try JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String: Any]]
        let table = try #require(decoded, "sqlite3 -json printed: \(rows)")
        #expect(table.count == 2)
        #expect(table[0]["url"] as? String == "https://swift.org/documentation/")
        #expect(table[0]["coalesce(title, '')"] as? String == "Swift | Documentation")
        #expect(
            table[0]["coalesce(preview_text, '')"] as? String == "Guides, \"quotes\" and 'apostrophes'\nover two lines")
        #expect(table[0]["date_added"] as? Int == Int(first.dateAdded.timeIntervalSince1970))
        #expect(table[0]["is_read"] as? Int == 1)
        #expect(table[1]["url"] as? String == "http://example.com/%C3%BCn%C3%AFcode?q=a%20b#frag")
        #expect(table[1]["coalesce(title, '')"] as? String == "Ünïcode ✓")
        #expect(table[1]["is_read"] as? Int == 0)

        let pragmas = try await sqlite3(folder.database, "PRAGMA journal_mode; PRAGMA user_version;", in: folder)
        #expect(pragmas == "wal\n\(ReadingList.schemaVersion)\n")
        // The date column reads as a date in SQLite's own functions.
        let day = try await sqlite3(folder.database, "SELECT date(max(date_added), 'unixepoch') FROM items", in: folder)
        #expect(day.trimmingCharacters(in: .newlines) == Self.utcDay(first.dateAdded))
    }

    @Test("rows another program writes with sqlite3 show in the list, and its unique index holds")
    func shellWrites() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        try list.addItem(url: URL(string: "https://example.com/a")!)
        _ = try await sqlite3(
            folder.database,
            "INSERT INTO items (url, title, date_added, is_read) VALUES ('https://example.com/b', 'From the shell', 4102444800, 1);",
            in: folder)
        let items = try list.items()
        #expect(
            items.map(\.summary) == [
                "https://example.com/b | From the shell | - | 4102444800 | read",
                "https://example.com/a | - | - | \(Int(items[1].dateAdded.timeIntervalSince1970)) | unread",
            ])
        let shell = try #require(Programs.sqlite3)
        let duplicate = try await run(
            shell, [folder.database.path, "INSERT INTO items (url, date_added) VALUES ('https://example.com/a', 0);"],
            in: folder)
        #expect(duplicate.status != 0)
        #expect(duplicate.standardError.contains("UNIQUE constraint failed"), "\(duplicate)")
    }

    @Test("a version 1 database (URL, title, date) is migrated to the current schema, keeping its rows")
    func migratesVersion1() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        // What the first version of the store wrote, made here by the sqlite3 shell.
        _ = try await sqlite3(
            folder.database,
            """
            CREATE TABLE items (
                id INTEGER PRIMARY KEY,
                url TEXT NOT NULL UNIQUE,
                title TEXT,
                date_added INTEGER NOT NULL
            );
            INSERT INTO items (url, title, date_added) VALUES ('https://example.com/old', 'Old page', 1700000000);
            INSERT INTO items (url, title, date_added) VALUES ('https://example.com/older', NULL, 1600000000);
            PRAGMA user_version = 1;
            """,
            in: folder)
        let list = ReadingList(databaseURL: folder.database)
        #expect(
            try list.items().map(\.summary) == [
                "https://example.com/old | Old page | - | 1700000000 | unread",
                "https://example.com/older | - | - | 1600000000 | unread",
            ])
        // Version 2's columns work on the old rows.
        try list.addItem(
            url: URL(string: "https://example.com/older")!, title: "Older page", previewText: "Now with a preview")
        try list.markRead(url: URL(string: "https://example.com/old")!)
        #expect(try list.item(for: URL(string: "https://example.com/old")!)?.isRead == true)
        #expect(try list.item(for: URL(string: "https://example.com/older")!)?.previewText == "Now with a preview")

        let version = try await sqlite3(folder.database, "PRAGMA user_version;", in: folder)
        #expect(version == "\(ReadingList.schemaVersion)\n")
        let columns = try await sqlite3(
            folder.database, "SELECT name FROM pragma_table_info('items') ORDER BY cid;", in: folder)
        #expect(columns == "id\nurl\ntitle\ndate_added\npreview_text\nis_read\n")
        let indexes = try await sqlite3(
            folder.database, "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%';",
            in: folder)
        #expect(indexes == "items_by_date_added\n")
        let integrity = try await sqlite3(folder.database, "PRAGMA integrity_check;", in: folder)
        #expect(integrity == "ok\n")
    }

    @Test("a fresh file gets every migration in order, ending at the current version")
    func freshDatabase() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.defaultDatabase)
        #expect(try list.items().isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.defaultDatabase.path), "the folder is created")
        let schema = try await sqlite3(folder.defaultDatabase, ".schema items", in: folder)
        #expect(schema.contains("url TEXT NOT NULL UNIQUE"))
        #expect(schema.contains("preview_text TEXT"))
        #expect(schema.contains("is_read INTEGER NOT NULL DEFAULT 0"))
    }

    private static func utcDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
