import Foundation
import ShareSheet
import ShareSheetSystem

/// The reading list: web pages kept to read later, in a SQLite database that other programs
/// (the `sqlite3` shell, a browser extension) can read: the SSReadingList equivalent.
///
/// ```swift
/// try ReadingList.default.addItem(url: URL(string: "https://nshipster.com/uiactivityviewcontroller")!,
///                                 title: "NSHipster", previewText: "…")
/// ```
///
/// Only `http` and `https` pages are taken, as Safari's reading list takes. Adding a page that is
/// already there updates it (new title and preview when given, added again now, unread) instead
/// of listing it twice. Every change is one SQLite transaction, so several processes can add at
/// the same time: the database is in WAL mode and a writer waits up to `busyTimeout` for another.
public final class ReadingList: Sendable {
    /// The list at `$XDG_DATA_HOME/sharesheet/reading-list.sqlite` of this process's environment.
    public static let `default` = ReadingList(directories: HostEnvironment.process.directories)

    /// The database file.
    public let databaseURL: URL
    /// How long a change waits for another process's change to finish before it gives up.
    public let busyTimeout: Duration

    private let connection = Locked<SQLiteConnection?>(nil)

    /// A page to add: its address, and a title and preview when known.
    public struct NewItem: Sendable, Hashable {
        /// The page's address (`http` or `https`).
        public var url: URL
        /// The page's title.
        public var title: String?
        /// A few lines about the page.
        public var previewText: String?

        /// Describes a page to add.
        public init(url: URL, title: String? = nil, previewText: String? = nil) {
            self.url = url
            self.title = title
            self.previewText = previewText
        }
    }

    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        /// Pages that were not in the list.
        public var added: Int
        /// Pages that were, now updated from the import.
        public var updated: Int
    }

    /// The list stored in `databaseURL` (created with its folder on first use).
    public init(databaseURL: URL, busyTimeout: Duration = .seconds(10)) {
        self.databaseURL = databaseURL
        self.busyTimeout = busyTimeout
    }

    /// The list under `directories`' data folder: `sharesheet/reading-list.sqlite`.
    public convenience init(directories: XDGDirectories) {
        self.init(databaseURL: ReadingList.databaseURL(in: directories))
    }

    /// Where the list of `directories` lives.
    public static func databaseURL(in directories: XDGDirectories) -> URL {
        directories.shareSheetData.appendingPathComponent("reading-list.sqlite")
    }

    /// True when the reading list takes `url`: an `http` or `https` address with a host.
    public static func supportsURL(_ url: URL) -> Bool { (try? normalized(url)) != nil }

    /// `url` as the list stores it: scheme and host in lower case, `/` for an empty path.
    ///
    /// What is stored is read back from its text (the database, an export): the result reads
    /// back as itself. A host is decoded once per reading, so one that was percent-encoded
    /// (`xn--…%55…`) decodes only on the second to a label that is not valid punycode, which
    /// URLComponents refuses: found by `fuzz-bookmarks`, such an entry was taken on import and
    /// refused when its own export was imported. It is refused at once now, as a browser's URL
    /// parser refuses it, and an address that only settles on a second reading is kept as settled.
    /// - Throws: `ShareError(.badData)` naming the URL when it is not `http`/`https`, or has no
    ///   host, or a host that is not a valid domain name.
    public static func normalized(_ url: URL) throws -> URL {
        var current = try normalizedOnce(url, naming: url)
        for _ in 0..<3 {
            guard let reread = URL(string: current.absoluteString) else {
                throw ShareError(.badData, "\(url.absoluteString): not a web page address")
            }
            let again = try normalizedOnce(reread, naming: url)
            if again == current { return current }
            current = again
        }
        throw ShareError(.badData, "\(url.absoluteString): not a web page address (it does not read back as itself)")
    }

    /// One step of `normalized(_:)`: `url` with its scheme and host in lower case and `/` for an
    /// empty path; errors name `original`.
    private static func normalizedOnce(_ url: URL, naming original: URL) throws -> URL {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            let what = scheme.isEmpty ? "it has no scheme" : "\(scheme): links cannot be added"
            throw ShareError(
                .badData, "\(original.absoluteString): \(what); the reading list takes only http and https pages")
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let host = components.host, !host.isEmpty
        else {
            // URL keeps a host that URLComponents cannot decode (an `xn--` label that is not
            // punycode): say so rather than that there is none.
            if let written = url.host, !written.isEmpty {
                throw ShareError(
                    .badData, "\(original.absoluteString): not a web page address (its host \(written) is not a valid domain name)")
            }
            throw ShareError(.badData, "\(original.absoluteString): not a web page address (it has no host)")
        }
        components.scheme = scheme
        components.host = host.lowercased()
        if components.path.isEmpty { components.path = "/" }
        guard let result = components.url else {
            throw ShareError(.badData, "\(original.absoluteString): not a web page address")
        }
        return result
    }

    // MARK: Adding

    /// Adds a page, or updates it when it is already in the list.
    /// - Parameters:
    ///   - url: the page (`http` or `https` only).
    ///   - title: its title; when nil an existing entry keeps its own.
    ///   - previewText: a few lines about it; when nil an existing entry keeps its own.
    /// - Returns: the entry as stored.
    /// - Throws: `ShareError(.badData)` for another scheme, `.ioError` or `.temporaryFailure`
    ///   when the database cannot be written.
    @discardableResult
    public func addItem(url: URL, title: String? = nil, previewText: String? = nil) throws -> ReadingListItem {
        try addItems([NewItem(url: url, title: title, previewText: previewText)])[0]
    }

    /// Adds several pages in one transaction: all of them, or none when one is refused, the
    /// write fails or `isCancelled` turns true before the end.
    /// - Parameter progress: called after each page with how many are done.
    /// - Returns: the entries as stored, in the order given.
    /// - Throws: as `addItem`, or `CancellationError` when cancelled (nothing is kept).
    public func addItems(
        _ newItems: [NewItem], isCancelled: () -> Bool = { false }, progress: (Int) -> Void = { _ in }
    ) throws -> [ReadingListItem] {
        let urls = try newItems.map { try ReadingList.normalized($0.url) }
        let now = Date()
        return try write { connection in
            // An existing page takes the next id as well, so among pages added within the same
            // second the one added again last still lists first.
            let statement = try connection.prepare(
                """
                INSERT INTO items (url, title, preview_text, date_added, is_read) VALUES (?1, ?2, ?3, ?4, 0)
                ON CONFLICT (url) DO UPDATE SET
                    id = (SELECT max(id) FROM items) + 1,
                    title = coalesce(excluded.title, title),
                    preview_text = coalesce(excluded.preview_text, preview_text),
                    date_added = excluded.date_added,
                    is_read = 0
                RETURNING title, preview_text, date_added, is_read
                """)
            var stored: [ReadingListItem] = []
            stored.reserveCapacity(newItems.count)
            for (newItem, url) in zip(newItems, urls) {
                if isCancelled() { throw CancellationError() }
                let item = ReadingListItem(
                    url: url, title: newItem.title, previewText: newItem.previewText, dateAdded: now)
                try statement.bind([
                    .text(url.absoluteString), item.title.map { .text($0) } ?? .null,
                    item.previewText.map { .text($0) } ?? .null, .integer(Int(item.dateAdded.timeIntervalSince1970)),
                ])
                guard try statement.step() else { throw connection.error(0, call: "INSERT … RETURNING") }
                stored.append(Self.item(url: url, from: statement, firstColumn: 0))
                try statement.step()
                progress(stored.count)
            }
            if isCancelled() { throw CancellationError() }
            return stored
        }
    }

    // MARK: Reading

    /// Every entry, newest first.
    public func items() throws -> [ReadingListItem] {
        try read { connection in
            let statement = try connection.prepare(
                "SELECT url, title, preview_text, date_added, is_read FROM items ORDER BY date_added DESC, id DESC")
            var result: [ReadingListItem] = []
            while try statement.step() {
                guard let text = statement.text(at: 0), let url = URL(string: text) else { continue }
                result.append(Self.item(url: url, from: statement, firstColumn: 1))
            }
            return result
        }
    }

    /// The entry for `url`, or nil when it is not in the list.
    public func item(for url: URL) throws -> ReadingListItem? {
        let url = try ReadingList.normalized(url)
        return try read { connection in
            let statement = try connection.prepare(
                "SELECT title, preview_text, date_added, is_read FROM items WHERE url = ?1")
            try statement.bind([.text(url.absoluteString)])
            return try statement.step() ? Self.item(url: url, from: statement, firstColumn: 0) : nil
        }
    }

    // MARK: Changing

    /// Marks pages as read (or unread again), all or none.
    /// - Throws: `ShareError(.noInput)` naming the first page that is not in the list (nothing
    ///   changes then).
    public func setRead(_ isRead: Bool, for urls: [URL]) throws {
        let normalized = try urls.map(ReadingList.normalized)
        try write { connection in
            let statement = try connection.prepare("UPDATE items SET is_read = ?1 WHERE url = ?2")
            for (url, given) in zip(normalized, urls) {
                try statement.bind([.integer(isRead ? 1 : 0), .text(url.absoluteString)])
                try statement.step()
                if connection.changes == 0 { throw Self.notInList(given) }
            }
        }
    }

    /// Marks one page as read.
    public func markRead(url: URL) throws { try setRead(true, for: [url]) }

    /// Removes pages, all or none.
    /// - Throws: `ShareError(.noInput)` naming the first page that is not in the list (nothing
    ///   is removed then).
    public func removeItems(_ urls: [URL]) throws {
        let normalized = try urls.map(ReadingList.normalized)
        try write { connection in
            let statement = try connection.prepare("DELETE FROM items WHERE url = ?1")
            for (url, given) in zip(normalized, urls) {
                try statement.bind([.text(url.absoluteString)])
                try statement.step()
                if connection.changes == 0 { throw Self.notInList(given) }
            }
        }
    }

    /// Removes one page.
    public func removeItem(url: URL) throws { try removeItems([url]) }

    /// Takes entries as they are (their dates and read flags; from an export), in one
    /// transaction: a page already in the list is updated, not listed twice. Entries are taken
    /// from last to first, so a newest-first export comes back in the same order.
    /// - Throws: `ShareError(.badData)` naming the first entry that is not `http`/`https`.
    @discardableResult
    public func importItems(_ entries: [ReadingListItem]) throws -> ImportSummary {
        let urls = try entries.map { try ReadingList.normalized($0.url) }
        return try write { connection in
            let exists = try connection.prepare("SELECT 1 FROM items WHERE url = ?1")
            let upsert = try connection.prepare(
                """
                INSERT INTO items (url, title, preview_text, date_added, is_read) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (url) DO UPDATE SET
                    id = (SELECT max(id) FROM items) + 1,
                    title = coalesce(excluded.title, title),
                    preview_text = coalesce(excluded.preview_text, preview_text),
                    date_added = excluded.date_added,
                    is_read = excluded.is_read
                """)
            var summary = ImportSummary(added: 0, updated: 0)
            for (entry, url) in zip(entries, urls).reversed() {
                try exists.bind([.text(url.absoluteString)])
                if try exists.step() { summary.updated += 1 } else { summary.added += 1 }
                try upsert.bind([
                    .text(url.absoluteString), entry.title.map { .text($0) } ?? .null,
                    entry.previewText.map { .text($0) } ?? .null, .integer(Int(entry.dateAdded.timeIntervalSince1970)),
                    .integer(entry.isRead ? 1 : 0),
                ])
                try upsert.step()
            }
            return summary
        }
    }

    // MARK: The database

    /// The schema version this build writes (`PRAGMA user_version`).
    public static var schemaVersion: Int { Schema.currentVersion }

    /// Closes the database; the next call opens it again.
    public func close() {
        connection.withLock { $0 = nil }
    }

    private static func notInList(_ url: URL) -> ShareError {
        ShareError(.noInput, "\(url.absoluteString): not in the reading list")
    }

    private static func item(url: URL, from statement: SQLiteStatement, firstColumn: Int32) -> ReadingListItem {
        ReadingListItem(
            url: url, title: statement.text(at: firstColumn), previewText: statement.text(at: firstColumn + 1),
            dateAdded: Date(timeIntervalSince1970: TimeInterval(statement.int(at: firstColumn + 2))),
            isRead: statement.int(at: firstColumn + 3) != 0)
    }

    /// Runs `body` in one write transaction.
    private func write<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try withConnection { connection in try connection.writeTransaction { try body(connection) } }
    }

    /// Runs `body` on the connection (each statement reads a consistent snapshot).
    private func read<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try withConnection(body)
    }

    /// Runs `body` on the open connection (opening and migrating it first), one caller at a
    /// time, and turns SQLite's errors into a `ShareError` that names the file.
    private func withConnection<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        do {
            return try connection.withLock { connection in
                let open: SQLiteConnection
                if let connection {
                    open = connection
                } else {
                    open = try openDatabase()
                    connection = open
                }
                return try body(open)
            }
        } catch let error as SQLiteError {
            throw shareError(error)
        } catch let error as Schema.NewerVersion {
            throw ShareError(
                .badData,
                "\(databaseURL.path): made by a newer ShareSheet (schema version \(error.found); "
                    + "this build knows up to \(Schema.currentVersion))")
        }
    }

    /// Opens the file in WAL mode with the busy timeout, and brings its schema up to date.
    private func openDatabase() throws -> SQLiteConnection {
        let folder = databaseURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ShareError(
                .ioError, "\(folder.path): cannot create the folder: \((error as NSError).localizedDescription)")
        }
        let connection = try SQLiteConnection(path: databaseURL.path, busyTimeout: busyTimeout)
        // WAL lets readers go on while one process writes; NORMAL syncs at checkpoints, which in
        // WAL mode still never leaves a half-written transaction.
        // Switching a new file to WAL needs a lock that SQLite's busy handler does not wait for:
        // when two processes create the list at the same moment, the loser retries here.
        let deadline = ContinuousClock.now + busyTimeout
        while true {
            do {
                _ = try connection.text("PRAGMA journal_mode = WAL")
                break
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
        if try connection.integer("PRAGMA user_version") != Schema.currentVersion {
            try connection.writeTransaction { try Schema.migrate(connection) }
        }
        return connection
    }

    private func shareError(_ error: SQLiteError) -> ShareError {
        if error.isBusy {
            return ShareError(
                .temporaryFailure,
                "\(databaseURL.path): another program kept the reading list locked for more than "
                    + "\(busyTimeout.components.seconds) s (\(error.message)); try again")
        }
        return ShareError(.ioError, "\(databaseURL.path): \(error.message) (\(error.call))")
    }
}
