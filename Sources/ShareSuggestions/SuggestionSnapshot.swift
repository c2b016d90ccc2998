import Foundation
import ShareSheet
import ShareSheetSystem

/// The history's candidates for one set of item kinds, made ready for the next process's first
/// sheet: `$XDG_CACHE_HOME/sharesheet/suggestions/KINDS` (`image`, `file+image`, `all`).
///
/// Without it, the first sheet of every `share` process queries the whole history and reads the
/// contacts index: 14–18 ms for 10,000 shares and 2,000 contacts, against a sheet built in a
/// fraction of a millisecond (BENCHMARKS.md, "Suggestions"). With it, that sheet reads one
/// small file and makes three `stat` calls.
///
/// **Kept right.** A snapshot names what it was made from: the history's database and log
/// (`HistoryStamp`; any share recorded or forgotten changes them) and the contacts folder's
/// modification time (names and photos come from it). A sheet uses it only while both are
/// unchanged and it is younger than a day (a card edited in place, an application renamed); else
/// the sheet reads the history as before and writes the snapshot again. After each share, the
/// process that recorded it makes again the snapshots its kinds touch and restamps the others
/// (`HistorySuggestionSource.historyRecorded`), so the next sheet finds one ready.
///
/// **Private like the history.** It holds addresses and names, so `share history forget` and
/// `clear` remove every snapshot; `[history] enabled=false` reads and writes none.
struct SuggestionSnapshot: Equatable, Sendable {
    /// One candidate from the history, resolved (contact name and photo, application name).
    struct Candidate: Equatable, Sendable {
        /// What the sheet shows; a share target's is completed from the sheet's activity.
        var suggestion: ActivitySuggestion
        var uses: Int
        var lastUsed: Date
        /// The score when the snapshot was made (`made`).
        var score: Double

        /// A share target's suggestion takes its name and icon from the sheet's activity.
        var isShareTarget: Bool { suggestion.id.hasPrefix(SuggestionMaking.shareTargetPrefix) }
    }

    /// The contacts folder and its modification time, and the contacts index the names came
    /// from (made again whenever a sheet finds the folder changed, so a folder whose time is
    /// set back still tells); nil when no folder is configured or readable.
    struct ContactsStamp: Equatable, Sendable {
        var folder: String
        var seconds: Int
        var nanoseconds: Int
        var index: FileStamp?
    }

    var history: HistoryStamp
    var contacts: ContactsStamp?
    var made: Date
    /// The activities the history ranks above 0, best first.
    var activityTypes: [String]
    /// Up to `candidateLimit` candidates, best first.
    var candidates: [Candidate]
    /// True when every target the history ranks is among `candidates`.
    var complete: Bool

    /// Candidates a snapshot keeps: enough for 8 offered ones on nearly any sheet; a sheet that
    /// runs out before 8 reads the history.
    static let candidateLimit = 48
    /// A snapshot older than this is made again (cards edited in place, applications renamed).
    static let longestAge: TimeInterval = 86_400
    static let header = "sharesheet suggestions 1"

    // MARK: Files

    /// The folder of every snapshot.
    static func folder(in directories: XDGDirectories) -> URL {
        directories.cacheHome.appendingPathComponent("sharesheet/suggestions", isDirectory: true)
    }

    /// The file for items of `kinds` (history kind names).
    static func url(for kinds: Set<String>, in directories: XDGDirectories) -> URL {
        folder(in: directories).appendingPathComponent(fileName(for: kinds))
    }

    /// `all`, or the kinds in order joined by `+`.
    static func fileName(for kinds: Set<String>) -> String {
        kinds.isEmpty ? "all" : kinds.sorted().joined(separator: "+")
    }

    /// The kinds a file name stands for; nil for a name no snapshot has.
    static func kinds(fromFileName name: String) -> Set<String>? {
        if name == "all" { return [] }
        let kinds = name.split(separator: "+").map(String.init)
        guard !kinds.isEmpty, kinds.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (97...122).contains($0) } }) else { return nil }
        return Set(kinds)
    }

    /// Removes every snapshot: what `share history forget` and `clear` leave behind must not
    /// name who was forgotten.
    package static func removeAll(in directories: XDGDirectories) {
        try? FileManager.default.removeItem(at: folder(in: directories))
    }

    /// The contacts folder's stamp now, or nil when there is none.
    static func contactsStamp(folder: URL?, index: URL) -> ContactsStamp? {
        guard let folder else { return nil }
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return nil }
        return ContactsStamp(
            folder: folder.path, seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
            index: FileStamp(path: index.path))
    }

    // MARK: Reading and writing

    /// The snapshot in `url` when it still holds: made from `history` and `contacts` as they are
    /// now, within `longestAge` of `now`. Nil for anything else (missing, stale, cut, another
    /// format): the sheet then reads the history.
    static func read(_ url: URL, history: HistoryStamp, contacts: ContactsStamp?, now: Date) -> SuggestionSnapshot? {
        guard let data = FileManager.default.contents(atPath: url.path),
            let snapshot = decode(data), snapshot.history == history, snapshot.contacts == contacts,
            now >= snapshot.made, now.timeIntervalSince(snapshot.made) < longestAge
        else { return nil }
        return snapshot
    }

    /// Writes the snapshot to a temporary file beside `url` and renames it over `url`.
    func write(to url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFile.write(Data(encoded.utf8), to: url, permissions: 0o600)
    }

    /// The file's text.
    ///
    /// ```
    /// sharesheet suggestions 1
    /// history<TAB>DATABASE<TAB>LOG          (INODE:SIZE:SECONDS:NANOSECONDS, or -)
    /// contacts<TAB>FOLDER<TAB>SECONDS<TAB>NANOSECONDS<TAB>INDEX   (or contacts<TAB>-)
    /// made<TAB>MILLISECONDS
    /// complete<TAB>1
    /// activity<TAB>TYPE                      (one line each, best first)
    /// candidate<TAB>USES<TAB>LAST USED<TAB>SCORE<TAB>TYPE<TAB>ID<TAB>TITLE<TAB>SUBTITLE<TAB>ICON<TAB>PHOTO[<TAB>KEY<TAB>VALUE]…
    /// end<TAB>LINES
    /// ```
    ///
    /// Tabs and line breaks inside a value become spaces; the last line tells a whole file from a cut one.
    var encoded: String {
        func clean(_ value: String) -> String {
            guard value.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return value }
            return String(value.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        }
        var lines = [
            Self.header,
            "history\t" + FileStamp.text(history.database) + "\t" + FileStamp.text(history.log),
            contacts.map { "contacts\t" + clean($0.folder) + "\t\($0.seconds)\t\($0.nanoseconds)\t" + FileStamp.text($0.index) }
                ?? "contacts\t-",
            "made\t\(Self.milliseconds(made))",
            "complete\t" + (complete ? "1" : "0"),
        ]
        lines += activityTypes.map { "activity\t" + clean($0) }
        for candidate in candidates {
            let suggestion = candidate.suggestion
            var fields = [
                "candidate", "\(candidate.uses)", "\(Self.milliseconds(candidate.lastUsed))", "\(candidate.score)",
                suggestion.activityType.rawValue, suggestion.id, suggestion.title, suggestion.subtitle, suggestion.iconName,
                suggestion.photoPath ?? "",
            ]
            for key in suggestion.presets.keys.sorted() { fields += [key, suggestion.presets[key] ?? ""] }
            lines.append(fields.map(clean).joined(separator: "\t"))
        }
        lines.append("end\t\(lines.count + 1)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The snapshot a file's bytes hold, or nil.
    static func decode(_ data: Data) -> SuggestionSnapshot? {
        // Split as bytes: the separators are ASCII (as in the contacts index).
        data.withUnsafeBytes { raw -> SuggestionSnapshot? in
            let lines = raw.bindMemory(to: UInt8.self).split(separator: 0x0A, omittingEmptySubsequences: false)
            func text(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: part, as: UTF8.self) }
            guard lines.count >= 7, text(lines[0]) == header, lines[lines.count - 1].isEmpty,
                text(lines[lines.count - 2]) == "end\t\(lines.count - 1)"
            else { return nil }
            func fields(_ index: Int, _ name: String) -> [String]? {
                let parts = lines[index].split(separator: 0x09, omittingEmptySubsequences: false).map(text)
                return parts.first == name ? Array(parts.dropFirst()) : nil
            }
            guard let history = fields(1, "history"), history.count == 2,
                let contactFields = fields(2, "contacts"), let made = fields(3, "made"), made.count == 1,
                let madeTime = Int(made[0]), let complete = fields(4, "complete"), complete.count == 1
            else { return nil }
            var contacts: ContactsStamp?
            if contactFields != ["-"] {
                guard contactFields.count == 4, let seconds = Int(contactFields[1]), let nanoseconds = Int(contactFields[2]),
                    let index = FileStamp.parse(contactFields[3])
                else { return nil }
                contacts = ContactsStamp(folder: contactFields[0], seconds: seconds, nanoseconds: nanoseconds, index: index)
            }
            guard let database = FileStamp.parse(history[0]), let log = FileStamp.parse(history[1]) else { return nil }
            var snapshot = SuggestionSnapshot(
                history: HistoryStamp(database: database, log: log), contacts: contacts, made: date(madeTime), activityTypes: [],
                candidates: [], complete: complete[0] == "1")
            for index in 5..<(lines.count - 2) {
                let parts = lines[index].split(separator: 0x09, omittingEmptySubsequences: false)
                guard let kind = parts.first.map(text) else { return nil }
                switch kind {
                case "activity" where parts.count == 2:
                    snapshot.activityTypes.append(text(parts[1]))
                case "candidate" where parts.count >= 10 && parts.count % 2 == 0:
                    guard let uses = Int(text(parts[1])), let lastUsed = Int(text(parts[2])), let score = Double(text(parts[3])) else {
                        return nil
                    }
                    var presets: [String: String] = [:]
                    var next = 10
                    while next + 1 < parts.count {
                        presets[text(parts[next])] = text(parts[next + 1])
                        next += 2
                    }
                    let photo = text(parts[9])
                    snapshot.candidates.append(
                        Candidate(
                            suggestion: ActivitySuggestion(
                                id: text(parts[5]), activityType: ActivityType(text(parts[4])), title: text(parts[6]),
                                subtitle: text(parts[7]), iconName: text(parts[8]), photoPath: photo.isEmpty ? nil : photo,
                                presets: presets),
                            uses: uses, lastUsed: date(lastUsed), score: score))
                default:
                    return nil
                }
            }
            return snapshot
        }
    }

    private static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    private static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

extension FileStamp {
    /// The stamp `text` wrote: `.some(nil)` for `-`, nil for text that is neither.
    static func parse(_ text: String) -> FileStamp?? {
        if text == "-" { return .some(nil) }
        let parts = text.split(separator: ":")
        guard parts.count == 4, let inode = UInt64(parts[0]), let size = Int64(parts[1]), let seconds = Int(parts[2]),
            let nanoseconds = Int(parts[3])
        else { return nil }
        return .some(FileStamp(inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds))
    }
}

extension HistoryStamp {
    init(database: FileStamp?, log: FileStamp?) {
        self.database = database
        self.log = log
    }
}

/// The suggestions' snapshots as the command sees them.
public enum SuggestionSnapshots {
    /// Removes every snapshot of `directories`: after `share history forget` or `clear`, no file
    /// may still name whom the history held.
    public static func removeAll(in directories: XDGDirectories) {
        SuggestionSnapshot.removeAll(in: directories)
    }
}
