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
package struct SuggestionSnapshot: Equatable, Sendable {
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
    var candidates: SnapshotCandidates
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
    static func contactsStamp(folder: String?, index: String) -> ContactsStamp? {
        guard let folder else { return nil }
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }
        return ContactsStamp(
            folder: folder, seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), index: FileStamp(path: index))
    }

    // MARK: Reading and writing

    /// The snapshot in `url` when it still holds: made from `history` and `contacts` as they are
    /// now, within `longestAge` of `now`. Nil for anything else (missing, stale, cut, another
    /// format): the sheet then reads the history.
    /// - Returns: the snapshot and the file's stamp as it was read.
    static func read(
        _ path: String, history: HistoryStamp, contacts: ContactsStamp?, now: Date
    ) -> (snapshot: SuggestionSnapshot, file: FileStamp)? {
        guard let (bytes, file) = contents(of: path), let snapshot = decode(bytes),
            snapshot.holds(history: history, contacts: contacts, now: now)
        else { return nil }
        return (snapshot, file)
    }

    /// True when it was made from `history` and `contacts` as they are now, within
    /// `longestAge` of `now`.
    func holds(history: HistoryStamp, contacts: ContactsStamp?, now: Date) -> Bool {
        self.history == history && self.contacts == contacts && now >= made && now.timeIntervalSince(made) < Self.longestAge
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
    /// end<TAB>OFFSET                         (where this line starts, in bytes)
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
        for candidate in candidates.all ?? [] {
            let suggestion = candidate.suggestion
            var fields = [
                "candidate", "\(candidate.uses)", "\(Self.milliseconds(candidate.lastUsed))", "\(candidate.score)",
                suggestion.activityType.rawValue, suggestion.id, suggestion.title, suggestion.subtitle, suggestion.iconName,
                suggestion.photoPath ?? "",
            ]
            for key in suggestion.presets.keys.sorted() { fields += [key, suggestion.presets[key] ?? ""] }
            lines.append(fields.map(clean).joined(separator: "\t"))
        }
        let body = lines.joined(separator: "\n") + "\n"
        return body + "end\t\(body.utf8.count)\n"
    }

    /// A small file's bytes, read with one `read` (Foundation's reading costs a sheet more).
    private static func contents(of path: String) -> (bytes: [UInt8], file: FileStamp)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size < 1 << 20 else { return nil }
        let size = Int(info.st_size)
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let got = Foundation.read(descriptor, buffer.baseAddress! + done, size - done)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            complete = done == size
            count = done
        }
        guard complete else { return nil }
        return (
            bytes,
            FileStamp(
                inode: UInt64(info.st_ino), size: Int64(info.st_size), seconds: Int(info.st_mtim.tv_sec),
                nanoseconds: Int(info.st_mtim.tv_nsec))
        )
    }

    /// The snapshot a file's bytes hold, or nil.
    ///
    /// Read as bytes with `memchr`, and each candidate only when a sheet comes to it
    /// (`SnapshotCandidates`): this runs in the first sheet of every `share` process, where
    /// splitting the whole file cost more than the rest of the suggestions together
    /// (BENCHMARKS.md, "Suggestions").
    static func decode(_ bytes: [UInt8]) -> SuggestionSnapshot? {
        bytes.withUnsafeBufferPointer { buffer -> SuggestionSnapshot? in
            var reader = ByteLines(buffer)
            // The last line, `end<TAB>OFFSET`, gives where it starts: a cut file fails here.
            guard let end = reader.lastLine, reader.text(end) == "end\t\(end.lowerBound)",
                let first = reader.next(), reader.text(first) == header
            else { return nil }
            func fields(_ name: String) -> [String]? {
                guard let line = reader.next() else { return nil }
                let parts = reader.fields(line).map(reader.text)
                return parts.first == name ? Array(parts.dropFirst()) : nil
            }
            guard let history = fields("history"), history.count == 2,
                let contactFields = fields("contacts"), let made = fields("made"), made.count == 1,
                let madeTime = Int(made[0]), let complete = fields("complete"), complete.count == 1
            else { return nil }
            var contacts: ContactsStamp?
            if contactFields != ["-"] {
                guard contactFields.count == 4, let seconds = Int(contactFields[1]), let nanoseconds = Int(contactFields[2]),
                    let index = FileStamp.parse(contactFields[3])
                else { return nil }
                contacts = ContactsStamp(folder: contactFields[0], seconds: seconds, nanoseconds: nanoseconds, index: index)
            }
            guard let database = FileStamp.parse(history[0]), let log = FileStamp.parse(history[1]) else { return nil }
            var activityTypes: [String] = []
            let activityPrefix = Array("activity\t".utf8)
            // The candidates start where the activities end; their lines are found when read.
            var candidatesStart = end.lowerBound
            while let line = reader.next(), line != end {
                guard reader.starts(line, with: activityPrefix) else {
                    candidatesStart = line.lowerBound
                    break
                }
                activityTypes.append(reader.text((line.lowerBound + activityPrefix.count)..<line.upperBound))
            }
            return SuggestionSnapshot(
                history: HistoryStamp(database: database, log: log), contacts: contacts, made: date(madeTime),
                activityTypes: activityTypes, candidates: SnapshotCandidates(bytes: bytes, lines: candidatesStart..<end.lowerBound),
                complete: complete[0] == "1")
        }
    }

    private static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
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

/// The lines of a file's bytes and the tab-separated fields of each, as ranges, found with
/// `memchr` (a generic `split` goes byte by byte through the collection's indices).
struct ByteLines {
    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// The lines of `bytes`, from `position` on.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// True when `line` starts with `prefix`.
    func starts(_ line: Range<Int>, with prefix: [UInt8]) -> Bool {
        line.count >= prefix.count && memcmp(bytes.baseAddress! + line.lowerBound, prefix, prefix.count) == 0
    }

    /// The next line, without its line break; nil at the end or for a last line without one.
    mutating func next() -> Range<Int>? {
        guard let base = bytes.baseAddress, position < bytes.count,
            let found = memchr(base + position, 0x0A, bytes.count - position)
        else { return nil }
        let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
        defer { position = end + 1 }
        return position..<end
    }

    /// The file's last line, when the file ends with a line break.
    var lastLine: Range<Int>? {
        guard bytes.count > 1, bytes[bytes.count - 1] == 0x0A else { return nil }
        var start = bytes.count - 1
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return start..<(bytes.count - 1)
    }

    /// The tab-separated fields of `line` (one for a line without tabs).
    func fields(_ line: Range<Int>) -> [Range<Int>] {
        guard let base = bytes.baseAddress else { return [] }
        var fields: [Range<Int>] = []
        var start = line.lowerBound
        while let found = memchr(base + start, 0x09, line.upperBound - start) {
            let tab = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            fields.append(start..<tab)
            start = tab + 1
        }
        fields.append(start..<line.upperBound)
        return fields
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A decimal integer, maybe negative; nil for anything else.
    func integer(_ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < range.upperBound, range.count < 20 else { return nil }
        var value = 0
        while index < range.upperBound {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
            index += 1
        }
        return negative ? -value : value
    }
}

/// A snapshot's candidates, best first: made for writing, or the lines of a file read, each
/// parsed only when a sheet comes to it (a sheet usually stops after 8 of 48).
struct SnapshotCandidates: Sendable, Equatable, Sequence {
    fileprivate enum Storage: Sendable {
        case made([SuggestionSnapshot.Candidate])
        /// The bytes of the candidates' lines, each with its line break.
        case file(bytes: [UInt8], lines: Range<Int>)
    }

    private let storage: Storage

    /// Candidates made from the history.
    init(_ candidates: [SuggestionSnapshot.Candidate]) { storage = .made(candidates) }

    /// The candidates on the lines `lines` spans in a file's `bytes`.
    init(bytes: [UInt8], lines: Range<Int>) { storage = .file(bytes: bytes, lines: lines) }

    /// Every candidate, or nil when a line of the file cannot be read.
    var all: [SuggestionSnapshot.Candidate]? {
        var all: [SuggestionSnapshot.Candidate] = []
        for candidate in self {
            guard let candidate else { return nil }
            all.append(candidate)
        }
        return all
    }

    static func == (first: SnapshotCandidates, second: SnapshotCandidates) -> Bool { first.all == second.all }

    /// Each candidate in order; nil for a line that cannot be read (the sheet then reads the history).
    struct Iterator: IteratorProtocol {
        fileprivate let storage: Storage
        /// The next candidate's index (made) or line's start (file).
        fileprivate var position: Int

        mutating func next() -> SuggestionSnapshot.Candidate?? {
            switch storage {
            case .made(let candidates):
                guard position < candidates.count else { return nil }
                position += 1
                return .some(candidates[position - 1])
            case .file(let bytes, let lines):
                guard position < lines.upperBound else { return nil }
                let (candidate, next) = bytes.withUnsafeBufferPointer { buffer -> (SuggestionSnapshot.Candidate?, Int) in
                    // Each candidate line ends with a line break (the `end` line follows them).
                    var reader = ByteLines(UnsafeBufferPointer(rebasing: buffer[..<lines.upperBound]), from: position)
                    guard let line = reader.next() else { return (nil, lines.upperBound) }
                    return (SnapshotCandidates.parse(line, with: reader), line.upperBound + 1)
                }
                position = next
                return .some(candidate)
            }
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .made: return Iterator(storage: storage, position: 0)
        case .file(_, let lines): return Iterator(storage: storage, position: lines.lowerBound)
        }
    }

    /// `candidate<TAB>USES<TAB>LAST USED<TAB>SCORE<TAB>TYPE<TAB>ID<TAB>TITLE<TAB>SUBTITLE<TAB>ICON<TAB>PHOTO[<TAB>KEY<TAB>VALUE]…`
    private static func parse(_ line: Range<Int>, with reader: ByteLines) -> SuggestionSnapshot.Candidate? {
        let parts = reader.fields(line)
        guard parts.count >= 10, parts.count % 2 == 0, reader.text(parts[0]) == "candidate", let uses = reader.integer(parts[1]),
            let lastUsed = reader.integer(parts[2]), let score = Double(reader.text(parts[3]))
        else { return nil }
        var presets: [String: String] = [:]
        var next = 10
        while next + 1 < parts.count {
            presets[reader.text(parts[next])] = reader.text(parts[next + 1])
            next += 2
        }
        return SuggestionSnapshot.Candidate(
            suggestion: ActivitySuggestion(
                id: reader.text(parts[5]), activityType: ActivityType(reader.text(parts[4])), title: reader.text(parts[6]),
                subtitle: reader.text(parts[7]), iconName: reader.text(parts[8]),
                photoPath: parts[9].isEmpty ? nil : reader.text(parts[9]), presets: presets),
            uses: uses, lastUsed: SuggestionSnapshot.date(lastUsed), score: score)
    }
}
