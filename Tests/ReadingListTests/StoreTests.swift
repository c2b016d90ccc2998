import Foundation
import ShareSheet
import ShareSheetSystem
import Testing

@testable import ReadingList

@Suite("The reading list store")
struct StoreTests {
    let page = URL(string: "https://nshipster.com/uiactivityviewcontroller")!

    @Test("addItem keeps the URL, title, preview, date and an unread flag")
    func addsAnItem() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let item = try list.addItem(url: page, title: "NSHipster", previewText: "UIActivityViewController, in depth")
        #expect(item.url == page)
        #expect(item.title == "NSHipster")
        #expect(item.previewText == "UIActivityViewController, in depth")
        #expect(item.dateAdded >= before && item.dateAdded <= Date())
        #expect(!item.isRead)
        #expect(try list.items() == [item])
        #expect(try list.item(for: page) == item)
    }

    @Test("the same URL twice updates the entry instead of listing it twice")
    func sameURLUpdates() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        try list.addItem(url: page, title: "Old title", previewText: "Old preview")
        try list.markRead(url: page)
        #expect(try list.item(for: page)?.isRead == true)
        // Scheme and host differ only in case, and an empty path is "/": still the same page.
        try list.addItem(url: URL(string: "HTTPS://NSHipster.com/uiactivityviewcontroller")!, title: "New title")
        let items = try list.items()
        #expect(items.count == 1)
        #expect(items.first?.title == "New title")
        #expect(items.first?.previewText == "Old preview", "a nil preview keeps the stored one")
        #expect(items.first?.isRead == false, "adding again puts it back to read later")
        try list.addItem(url: URL(string: "https://Example.com")!)
        try list.addItem(url: URL(string: "https://example.com/")!)
        #expect(try list.items().map(\.url.absoluteString) == ["https://example.com/", page.absoluteString])
    }

    @Test("newest first, and re-adding moves a page to the top", arguments: [false, true])
    func order(reopen: Bool) throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        var list = ReadingList(databaseURL: folder.database)
        let urls = (0..<5).map { URL(string: "https://example.com/\($0)")! }
        for url in urls { try list.addItem(url: url) }
        try list.addItem(url: urls[1])
        if reopen { list = ReadingList(databaseURL: folder.database) }
        #expect(try list.items().map(\.url) == [urls[1], urls[4], urls[3], urls[2], urls[0]])
    }

    @Test(
        "only http and https pages are taken; others are refused as bad data naming the URL",
        arguments: [
            "ftp://ftp.example.com/pub/file.txt", "javascript:alert(document.cookie)", "file:///etc/passwd",
            "mailto:ana@example.com", "data:text/html,<b>hi</b>", "https:///no-host",
        ])
    func refusesOtherSchemes(address: String) throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let url = try #require(URL(string: address))
        #expect(!ReadingList.supportsURL(url))
        let error = #expect(throws: ShareError.self) { try list.addItem(url: url, title: "x") }
        #expect(error?.kind == .badData)
        #expect(error?.message.hasPrefix(url.absoluteString + ": ") == true, "\(error?.message ?? "")")
        #expect(try list.items().isEmpty)
        #expect(ReadingList.supportsURL(page))
    }

    @Test("a batch with one refused URL adds none of them")
    func batchIsAllOrNothing() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        #expect(throws: ShareError.self) {
            try list.addItems([
                .init(url: URL(string: "https://example.com/a")!),
                .init(url: URL(string: "ftp://example.com/b")!),
            ])
        }
        #expect(try list.items().isEmpty)
    }

    @Test("a write that fails half-way through a batch leaves nothing behind")
    func failedWriteRollsBack() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        try list.addItem(url: page)
        let steps = Locked(0)
        SQLite.failureHooks.withLock { hooks in
            hooks[folder.database.path] = { call, sql in
                guard call == "sqlite3_step", sql?.contains("INSERT INTO items") == true else { return nil }
                let count = steps.withLock { count -> Int in
                    count += 1
                    return count
                }
                // Each insert steps twice (its row, then done): the first two inserts go through,
                // the third fails as on a full disk (SQLITE_FULL).
                return count == 5 ? 13 : nil
            }
        }
        defer { SQLite.failureHooks.withLock { $0[folder.database.path] = nil } }
        let urls = (0..<4).map { URL(string: "https://example.com/\($0)")! }
        let error = #expect(throws: ShareError.self) { try list.addItems(urls.map { .init(url: $0) }) }
        #expect(error?.kind == .ioError)
        #expect(error?.message.contains(folder.database.path) == true)
        SQLite.failureHooks.withLock { $0[folder.database.path] = nil }
        #expect(try list.items().map(\.url) == [page])
    }

    @Test("cancelling a batch before its end keeps none of it")
    func cancelledBatch() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let urls = (0..<50).map { ReadingList.NewItem(url: URL(string: "https://example.com/\($0)")!) }
        let done = Locked(0)
        #expect(throws: CancellationError.self) {
            try list.addItems(
                urls, isCancelled: { done.withLock { $0 } >= 20 }, progress: { count in done.withLock { $0 = count } })
        }
        #expect(done.withLock { $0 } == 20)
        #expect(try list.items().isEmpty)
    }

    @Test("mark-read and remove change all the named pages, or none when one is missing")
    func markReadAndRemove() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        let a = URL(string: "https://example.com/a")!
        let b = URL(string: "https://example.com/b")!
        let missing = URL(string: "https://example.com/missing")!
        try list.addItem(url: a)
        try list.addItem(url: b)
        let error = #expect(throws: ShareError.self) { try list.setRead(true, for: [a, missing]) }
        #expect(error?.kind == .noInput)
        #expect(error?.message == "https://example.com/missing: not in the reading list")
        #expect(try list.items().allSatisfy { !$0.isRead })
        try list.setRead(true, for: [a, b])
        #expect(try list.items().allSatisfy(\.isRead))
        try list.setRead(false, for: [b])
        #expect(try list.item(for: b)?.isRead == false)
        #expect(throws: ShareError.self) { try list.removeItems([b, missing]) }
        #expect(try list.items().count == 2)
        try list.removeItem(url: a)
        #expect(try list.items().map(\.url) == [b])
    }

    @Test("ReadingList.default lives at $XDG_DATA_HOME/sharesheet/reading-list.sqlite")
    func defaultLocation() throws {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data/ana"])
        #expect(ReadingList.databaseURL(in: directories).path == "/data/ana/sharesheet/reading-list.sqlite")
        let homeOnly = XDGDirectories(environment: ["HOME": "/home/ana"])
        #expect(ReadingList.databaseURL(in: homeOnly).path == "/home/ana/.local/share/sharesheet/reading-list.sqlite")
    }

    @Test("a database from a newer build is refused, not changed")
    func newerSchema() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let list = ReadingList(databaseURL: folder.database)
        try list.addItem(url: page)
        list.close()
        let connection = try SQLiteConnection(path: folder.database.path, busyTimeout: .seconds(1))
        try connection.execute("PRAGMA user_version = \(ReadingList.schemaVersion + 1)")
        let reopened = ReadingList(databaseURL: folder.database)
        let error = #expect(throws: ShareError.self) { try reopened.items() }
        #expect(error?.kind == .badData)
        #expect(error?.message.contains("newer") == true)
        #expect(try connection.integer("PRAGMA user_version") == ReadingList.schemaVersion + 1)
    }
}
