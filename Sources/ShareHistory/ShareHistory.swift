import Foundation
import ShareSheet
import ShareSheetSystem

/// The share history the person owns (SPEC §12): one row per finished share in
/// `$XDG_DATA_HOME/sharesheet/history.sqlite`, which `sqlite3` reads and `share history` lists,
/// forgets from and clears.
///
/// Each share is one transaction in a WAL database with `synchronous=NORMAL`: a share killed
/// while it records leaves the history as it was before or after, never half written. A file
/// that is not a database, or whose pages do not hold together, is set aside with a warning and
/// a new history started, so a broken history never stops a share.
///
/// No connection is kept: a `share` process records once. Closing leaves the write-ahead log
/// to be copied back every few shares (`longestLog`) rather than syncing at every share, which keeps
/// a record well under a millisecond (BENCHMARKS.md, "Share history"). What is forgotten is
/// overwritten (`secure_delete`) and checkpointed at once, so it does not linger in the log.
public struct ShareHistory: Sendable {
    /// The database file.
    public let databaseURL: URL

    /// The history stored in `databaseURL` (created with its folder on the first record).
    public init(databaseURL: URL) {
        self.databaseURL = databaseURL
    }

    /// The history under `directories`' data folder: `sharesheet/history.sqlite`.
    public init(directories: XDGDirectories) {
        self.init(databaseURL: ShareHistory.databaseURL(in: directories))
    }

    /// Where the history of `directories` lives.
    public static func databaseURL(in directories: XDGDirectories) -> URL {
        directories.shareSheetData.appendingPathComponent("history.sqlite")
    }

    /// True when the file exists (`share history` creates nothing by reading).
    public var exists: Bool { FileManager.default.fileExists(atPath: databaseURL.path) }

    // MARK: Writing

    /// Records one finished share and drops the entries older than `keepDays`, in one transaction.
    /// - Parameters:
    ///   - entry: the share; its `id` is ignored.
    ///   - keepDays: how many days of history to keep, counted back from `now`.
    ///   - now: the time that counts as now for dropping old entries.
    /// - Returns: the entry as stored (with its id) and the warnings to say (a file set aside).
    /// - Throws: `ShareError(.ioError)` when the database cannot be written.
    @discardableResult
    public func record(_ entry: HistoryEntry, keepDays: Int, now: Date = Date()) throws -> (entry: HistoryEntry, warnings: [String]) {
        let recorded = try recordCountingDropped(entry, keepDays: keepDays, now: now)
        return (recorded.entry, recorded.warnings)
    }

    /// `record`, also saying how many old shares were dropped with it (what the ranking lost).
    public func recordCountingDropped(
        _ entry: HistoryEntry, keepDays: Int, now: Date = Date()
    ) throws -> (entry: HistoryEntry, dropped: Int, warnings: [String]) {
        var warnings: [String] = []
        let written = try writing(create: true, verify: false, warnings: &warnings) { connection in
            let dropped = try Self.dropEntries(before: now.addingTimeInterval(-Double(keepDays) * 86_400), in: connection)
            let id = try Self.insert(entry, into: connection)
            #if DEBUG
                // The kill tests stop a share here, inside the open transaction (ShareHistoryTests).
                if let pause = ProcessInfo.processInfo.environment["SHARESHEET_TEST_HISTORY_PAUSE_MS"].flatMap(UInt32.init) {
                    usleep(pause * 1000)
                }
            #endif
            return (id: id, dropped: dropped)
        }
        var stored = entry
        stored.id = written?.id ?? 0
        return (stored, written?.dropped ?? 0, warnings)
    }

    /// Forgets one share by its id.
    /// - Returns: how many shares were forgotten (0 or 1) and the warnings to say.
    public func forget(id: Int) throws -> (count: Int, warnings: [String]) {
        try deleting(where: "id = ?", [.integer(id)])
    }

    /// Forgets every share that went to `target`: a recipient's address, a device's fingerprint
    /// or alias, an application's or share target's id, a printer (letter case aside).
    /// - Returns: how many shares were forgotten and the warnings to say.
    public func forget(target: String) throws -> (count: Int, warnings: [String]) {
        try deleting(
            where: "id IN (SELECT share_id FROM share_targets WHERE value = ?1 COLLATE NOCASE OR name = ?1 COLLATE NOCASE)",
            [.text(target)])
    }

    /// Forgets every share.
    /// - Returns: how many shares were forgotten and the warnings to say.
    public func clear() throws -> (count: Int, warnings: [String]) {
        try deleting(where: "1", [])
    }

    // MARK: Reading

    /// Every share recorded, newest first; empty when there is no history file.
    /// - Returns: the entries and the warnings to say (a file set aside).
    public func entries() throws -> (entries: [HistoryEntry], warnings: [String]) {
        var warnings: [String] = []
        let entries = try writing(create: false, warnings: &warnings) { connection in
            try Self.readEntries(connection)
        }
        return (entries ?? [], warnings)
    }

    /// The ranking of SPEC §12 over the shares that held an item of `kinds` (`image`, `movie`,
    /// `text`, `link`, `file`; empty for all), as `HistoryRanking` describes it. Read in one
    /// query without loading the entries: a sheet asks for it while it is built.
    /// - Returns: the ranking (empty when there is no history file) and the warnings to say.
    public func ranking(for kinds: Set<String>, now: Date = Date()) throws -> (ranking: HistoryRanking, warnings: [String]) {
        var warnings: [String] = []
        let ranking = try writing(create: false, verify: false, warnings: &warnings) { connection in
            try RankingQuery.ranking(connection, kinds: kinds, now: now)
        }
        return (ranking ?? HistoryRanking(targets: [], activities: []), warnings)
    }

    // MARK: Internals

    /// Deletes the shares that `condition` picks, with their targets and item counts.
    private func deleting(where condition: String, _ values: [SQLiteStatement.Value]) throws -> (count: Int, warnings: [String]) {
        var warnings: [String] = []
        let count = try writing(create: false, checkpoint: true, warnings: &warnings) { connection in
            // The ids first: the condition may read the targets that are deleted next.
            let picked = try connection.prepare("SELECT id FROM shares WHERE \(condition)")
            try picked.bind(values)
            var ids: [Int] = []
            while try picked.step() { ids.append(picked.int(at: 0)) }
            let deletes = try ["share_targets", "share_items"].map { try connection.prepare("DELETE FROM \($0) WHERE share_id = ?") }
                + [connection.prepare("DELETE FROM shares WHERE id = ?")]
            for id in ids {
                for delete in deletes {
                    try delete.bind([.integer(id)])
                    try delete.step()
                }
            }
            return ids.count
        }
        return (count ?? 0, warnings)
    }

    /// Runs `body` in a write transaction on a database brought to the current schema. A file
    /// that turns out not to be a database, or corrupt, is set aside (a warning is added) and
    /// `body` runs once more on a new one.
    /// - Parameters:
    ///   - create: false to do nothing (nil) when there is no file yet.
    ///   - checkpoint: true to copy the log into the database and empty it after the commit.
    ///   - verify: true to check every page first (`PRAGMA quick_check`, about a millisecond for
    ///     a full history): done by `share history`, where a person waits anyway; a share relies
    ///     on SQLite's own checks of the pages it reads and writes.
    private func writing<Result>(
        create: Bool, checkpoint: Bool = false, verify: Bool = true, warnings: inout [String],
        _ body: (SQLiteConnection) throws -> Result
    ) throws -> Result? {
        for attempt in 0..<2 {
            guard create || exists else { return nil }
            do {
                if create { try HistoryFiles.makeFolder(of: databaseURL) }
                let connection = try SQLiteConnection(path: databaseURL.path, create: create)
                try Self.prepare(connection)
                if verify { try Self.verify(connection) }
                let result = try connection.writeTransaction {
                    try Schema.migrate(connection)
                    return try body(connection)
                }
                if checkpoint || logPages > Self.longestLog { _ = try connection.text("PRAGMA wal_checkpoint(TRUNCATE)") }
                return result
            } catch let error as SQLiteError where error.meansCorruptFile && attempt == 0 {
                warnings.append(try HistoryFiles.setAside(databaseURL, because: error.message))
            } catch let error as SQLiteError {
                throw ShareError(.ioError, "history: \(databaseURL.path): \(error.message)")
            } catch let error as Schema.NewerVersion {
                throw ShareError(
                    .configuration,
                    "history: \(databaseURL.path) was made by a newer ShareSheet (schema \(error.found)); update share to use it")
            }
        }
        return nil
    }

    /// WAL with `synchronous=NORMAL`: a killed process never leaves the file inconsistent (a
    /// power cut may lose the last share, not the file); deleted rows overwritten.
    private static func prepare(_ connection: SQLiteConnection) throws {
        if try connection.text("PRAGMA journal_mode") != "wal" { _ = try connection.text("PRAGMA journal_mode = WAL") }
        // The log is checkpointed here (`longestLog`), not by SQLite: its own checkpoint never
        // restarts a log that each new process reads back from the start.
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON; PRAGMA wal_autocheckpoint = 0")
        try connection.leaveLogOnClose()
    }

    /// Checks every page, so a damaged file is set aside before it is read or written.
    private static func verify(_ connection: SQLiteConnection) throws {
        let check = try connection.text("PRAGMA quick_check(1)")
        guard check == "ok" else {
            throw SQLiteError.corrupt(call: "PRAGMA quick_check", message: check ?? "the integrity check found damage")
        }
    }

    /// The most pages the write-ahead log keeps before a share copies it into the database and
    /// empties it (a few shares' worth). Each process reads the whole log back when it opens it
    /// (the log's index does not outlive the last connection, and a log a process left is never
    /// restarted by SQLite's own checkpoints), so a long log costs every share; emptying it syncs
    /// the files, so doing it at every share costs every share too.
    public static let longestLog = 32

    /// Pages in the write-ahead log now, from its size (it is emptied to 0 bytes by each checkpoint).
    private var logPages: Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: databaseURL.path + "-wal")[.size] as? Int) ?? 0
        return max(0, size - 32) / (4096 + 24)
    }

    /// Deletes the shares finished before `cutoff`; returns how many.
    private static func dropEntries(before cutoff: Date, in connection: SQLiteConnection) throws -> Int {
        let old = "SELECT id FROM shares WHERE time < ?"
        let milliseconds = SQLiteStatement.Value.integer(Self.milliseconds(cutoff))
        for table in ["share_targets", "share_items"] {
            let statement = try connection.prepare("DELETE FROM \(table) WHERE share_id IN (\(old))")
            try statement.bind([milliseconds])
            try statement.step()
        }
        let statement = try connection.prepare("DELETE FROM shares WHERE time < ?")
        try statement.bind([milliseconds])
        try statement.step()
        return connection.changes
    }

    /// Inserts the share, its item counts and its targets; returns its id.
    private static func insert(_ entry: HistoryEntry, into connection: SQLiteConnection) throws -> Int {
        let share = try connection.prepare(
            "INSERT INTO shares (time, activity_type, activity, item_count, disposition) VALUES (?, ?, ?, ?, ?)")
        try share.bind([
            .integer(milliseconds(entry.time)), .text(entry.activityType), .text(entry.activity), .integer(entry.itemCount),
            .text(entry.disposition),
        ])
        try share.step()
        let id = connection.lastInsertedRowID
        let item = try connection.prepare("INSERT INTO share_items (share_id, kind, count) VALUES (?, ?, ?)")
        for count in entry.items {
            try item.bind([.integer(id), .text(count.kind), .integer(count.count)])
            try item.step()
        }
        let target = try connection.prepare("INSERT INTO share_targets (share_id, position, kind, value, name) VALUES (?, ?, ?, ?, ?)")
        for (position, each) in entry.targets.enumerated() {
            try target.bind([.integer(id), .integer(position), .text(each.kind.rawValue), .text(each.value), each.name.map { .text($0) } ?? .null])
            try target.step()
        }
        return id
    }

    /// Every share, newest first, with its targets and item counts.
    private static func readEntries(_ connection: SQLiteConnection) throws -> [HistoryEntry] {
        var targets: [Int: [HistoryTarget]] = [:]
        let targetRows = try connection.prepare("SELECT share_id, kind, value, name FROM share_targets ORDER BY share_id, position")
        while try targetRows.step() {
            // A kind a later build added reads as what it is closest to: a recipient.
            let kind = HistoryTarget.Kind(rawValue: targetRows.text(at: 1) ?? "") ?? .recipient
            targets[targetRows.int(at: 0), default: []].append(
                HistoryTarget(kind: kind, value: targetRows.text(at: 2) ?? "", name: targetRows.text(at: 3)))
        }
        var items: [Int: [HistoryEntry.ItemCount]] = [:]
        let itemRows = try connection.prepare("SELECT share_id, kind, count FROM share_items ORDER BY share_id, kind")
        while try itemRows.step() {
            items[itemRows.int(at: 0), default: []].append(
                HistoryEntry.ItemCount(kind: itemRows.text(at: 1) ?? "", count: itemRows.int(at: 2)))
        }
        var entries: [HistoryEntry] = []
        let shares = try connection.prepare(
            "SELECT id, time, activity_type, activity, disposition FROM shares ORDER BY time DESC, id DESC")
        while try shares.step() {
            let id = shares.int(at: 0)
            entries.append(
                HistoryEntry(
                    id: id, time: Date(timeIntervalSince1970: Double(shares.int(at: 1)) / 1000),
                    activityType: shares.text(at: 2) ?? "", activity: shares.text(at: 3) ?? "",
                    targets: targets[id] ?? [], items: items[id] ?? [], disposition: shares.text(at: 4) ?? ""))
        }
        return entries
    }

    private static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
}
