import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSheetTesting
import Testing

@testable import ShareSuggestions

/// The first sheet of a process reads the snapshot the last share or sheet left, not the
/// history, and gets what the history would give; a share keeps it right; anything else that
/// changes the history or the contacts sends the sheet back to them.
@Suite("Suggestion snapshots", .serialized)
@MainActor
struct SuggestionSnapshotTests {
    let home: TemporaryHome
    let environment: HostEnvironment
    let folder: URL

    init() throws {
        home = try TemporaryHome(prefix: "suggestion-snapshots")
        environment = HostEnvironment(variables: home.environment)
        folder = environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeCard(name: "Ana Lima")
        settleFolder()
    }

    static let image = ItemKind.of(URL(fileURLWithPath: "/tmp/photo.png"))
    static let text = ItemKind.string
    static let offered: [Activity] = [
        FakeActivity(type: .mail, title: "Mail"), FakeActivity(type: .print, title: "Print"),
        FakeActivity(type: .airDrop, title: "AirDrop"), FakeActivity(type: .copyToPasteboard, title: "Copy"),
    ]

    func writeCard(name: String) throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:\(name)\r\nEMAIL:ana@example.com\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent(".ana.tmp"))
        #expect(rename(folder.appendingPathComponent(".ana.tmp").path, folder.appendingPathComponent("ana.vcf").path) == 0)
    }

    /// Dates the folder an hour back, as a folder nobody touched lately (a snapshot is not
    /// written over contacts that changed in the last seconds).
    func settleFolder(back seconds: Int = 3600) {
        var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder.path, &times, 0) == 0)
    }

    func entry(_ to: String, kind: String = "image", type: ActivityType = .mail, activity: String = "mail", time: Date = Date())
        -> HistoryEntry
    {
        HistoryEntry(
            time: time, activityType: type.rawValue, activity: activity,
            targets: [HistoryTarget(kind: type == .print ? .printer : .recipient, value: to)],
            items: [HistoryEntry.ItemCount(kind: kind, count: 1)], disposition: "sent")
    }

    var history: ShareHistory { ShareHistory(directories: environment.directories) }

    /// A share recorded as the command records it: the source told before and after.
    func share(_ entry: HistoryEntry) throws {
        let source = HistorySuggestionSource(environment: environment)
        source.historyWillRecord()
        let recorded = try history.recordCountingDropped(entry, keepDays: 90)
        source.historyRecorded(
            RecordedShare(kinds: Set(entry.items.map(\.kind)), counts: entry.disposition != "failed", dropped: recorded.dropped))
    }

    /// A new process's first sheet: its suggestions' titles and how many history queries it made.
    func firstSheet(_ kind: ItemKind = image) -> (titles: [String], order: [ActivityType], queries: Int) {
        HistorySuggestionSource.emptyProcessCaches()
        let before = RankingCache.queries.withLock { $0 }
        let source = HistorySuggestionSource(environment: environment)
        let order = source.recentTypes(for: [kind])
        let titles = source.suggestions(for: [kind], offered: Self.offered).map(\.title)
        return (titles, order, RankingCache.queries.withLock { $0 } - before)
    }

    func snapshotURL(_ kinds: Set<String>) -> URL { URL(fileURLWithPath: HomeFiles.of(environment).snapshot(for: kinds)) }

    @Test("the first sheet reads the history once and leaves a snapshot; the next process's reads only the snapshot")
    func nextProcessReadsSnapshot() throws {
        defer { home.remove() }
        for to in ["ana@example.com", "ana@example.com", "ana@example.com", "bo@example.com"] { try history.record(entry(to), keepDays: 90) }
        let first = firstSheet()
        #expect(first.titles == ["Ana Lima", "bo@example.com"])
        #expect(first.order == [.mail])
        #expect(first.queries == 1)
        #expect(FileManager.default.fileExists(atPath: snapshotURL(["image"]).path))
        let second = firstSheet()
        #expect(second.titles == first.titles)
        #expect(second.order == first.order)
        #expect(second.queries == 0)
    }

    @Test("a share makes the snapshots of its kinds again and restamps the others: the next sheet still reads no history")
    func shareKeepsSnapshotsRight() throws {
        defer { home.remove() }
        for to in ["ana@example.com", "ana@example.com", "bo@example.com"] { try history.record(entry(to), keepDays: 90) }
        try history.record(entry("Office", kind: "text", type: .print, activity: "print"), keepDays: 90)
        _ = firstSheet(Self.image)
        _ = firstSheet(Self.text)
        // Two more mails to Bo with an image: Bo comes first for images.
        let before = RankingCache.queries.withLock { $0 }
        try share(entry("bo@example.com"))
        try share(entry("bo@example.com"))
        // One query per share, for the image snapshot; the text one was restamped.
        #expect(RankingCache.queries.withLock { $0 } - before == 2)
        let images = firstSheet(Self.image)
        #expect(images.titles == ["bo@example.com", "Ana Lima"])
        #expect(images.queries == 0)
        let texts = firstSheet(Self.text)
        // Office from the history, then Ana from the contacts, with room left.
        #expect(texts.titles == ["Office", "Ana Lima"])
        #expect(texts.order == [.print])
        #expect(texts.queries == 0)
    }

    @Test("deferred, the snapshot is made again only at flush: the command prints its result first")
    func deferredFollowing() throws {
        defer { home.remove() }
        for to in ["ana@example.com", "ana@example.com"] { try history.record(entry(to), keepDays: 90) }
        #expect(firstSheet().titles == ["Ana Lima"])
        let deferred = DeferredHistoryFollowing(HistorySuggestionSource(environment: environment))
        deferred.historyWillRecord()
        let share = entry("bo@example.com")
        try history.record(share, keepDays: 90)
        deferred.historyRecorded(RecordedShare(kinds: ["image"], counts: true, dropped: 0))
        // Not yet: the snapshot no longer matches the history, so a sheet would read the history.
        let url = snapshotURL(["image"])
        #expect(try !String(contentsOf: url, encoding: .utf8).contains("bo@example.com"))
        deferred.flush()
        #expect(try String(contentsOf: url, encoding: .utf8).contains("bo@example.com"))
        let next = firstSheet()
        #expect(next.titles == ["Ana Lima", "bo@example.com"])
        #expect(next.queries == 0)
    }

    @Test("the same answer as the history gives, for every kind and order of shares")
    func sameAsHistory() throws {
        defer { home.remove() }
        let now = Date()
        let people = (1...30).map { "person\($0)@example.com" }
        for index in 0..<200 {
            let to = people[(index * 7 + index / 5) % people.count]
            let kind = ["image", "text", "file"][index % 3]
            try history.record(entry(to, kind: kind, time: now.addingTimeInterval(-Double(index) * 20_000)), keepDays: 90)
        }
        for kind in [Self.image, Self.text] {
            let fromHistory = firstSheet(kind)
            #expect(fromHistory.queries == 1)
            let fromSnapshot = firstSheet(kind)
            #expect(fromSnapshot.queries == 0)
            #expect(fromSnapshot.titles == fromHistory.titles)
            #expect(fromSnapshot.titles.count == 8)
        }
    }

    @Test("a share recorded without the source, a renamed contact, or a cut file: the sheet reads the history again")
    func staleSnapshotsAreNotUsed() throws {
        defer { home.remove() }
        try history.record(entry("ana@example.com"), keepDays: 90)
        #expect(firstSheet().titles == ["Ana Lima"])
        // Another writer (sqlite3, an older share): the history's files changed.
        try history.record(entry("bo@example.com"), keepDays: 90)
        try history.record(entry("bo@example.com"), keepDays: 90)
        let afterWriter = firstSheet()
        #expect(afterWriter.titles == ["bo@example.com", "Ana Lima"])
        #expect(afterWriter.queries == 1)
        #expect(firstSheet().queries == 0)
        // The card renamed into place, and the folder's time even set back to what it was.
        try writeCard(name: "Ana Souza")
        #expect(firstSheet().titles == ["bo@example.com", "Ana Souza"])
        settleFolder()
        let renamed = firstSheet()
        #expect(renamed.titles == ["bo@example.com", "Ana Souza"])
        // A cut file.
        let url = snapshotURL(["image"])
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        let cut = firstSheet()
        #expect(cut.titles == ["bo@example.com", "Ana Souza"])
        #expect(cut.queries == 1)
    }

    @Test("history off: no snapshot is read or written")
    func historyOff() throws {
        defer { home.remove() }
        try history.record(entry("bo@example.com"), keepDays: 90)
        #expect(firstSheet().titles == ["bo@example.com", "Ana Lima"])
        #expect(FileManager.default.fileExists(atPath: snapshotURL(["image"]).path))
        let config = environment.directories.configHome.appendingPathComponent("sharesheet/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[history]\nenabled=false\n".utf8).write(to: config)
        let off = firstSheet()
        #expect(off.titles == ["Ana Lima"], "the contacts, never the history")
        #expect(off.order.isEmpty)
        try FileManager.default.removeItem(at: snapshotURL(["image"]))
        try share(entry("cy@example.com"))
        #expect(firstSheet().titles == ["Ana Lima"])
        #expect(!FileManager.default.fileExists(atPath: snapshotURL(["image"]).path))
    }

    @Test("a snapshot's file reads back as it was written, values with tabs and line breaks made spaces")
    func fileRoundTrip() throws {
        defer { home.remove() }
        let snapshot = SuggestionSnapshot(
            history: HistoryStamp(database: FileStamp(inode: 7, size: 4096, seconds: 1_700_000_000, nanoseconds: 5), log: nil),
            contacts: SuggestionSnapshot.ContactsStamp(folder: "/home/ana/contacts", seconds: 3, nanoseconds: 4, index: nil),
            made: Date(timeIntervalSince1970: 1_800_000_000.123), activityTypes: ["com.apple.UIKit.activity.Mail"],
            candidates: SnapshotCandidates([
                SuggestionSnapshot.Candidate(
                    suggestion: ActivitySuggestion(
                        id: "mail:ana@example.com", activityType: .mail, title: "Ana\tLima", subtitle: "Mail · ana@example.com",
                        iconName: "avatar-default", photoPath: "/a b/c.jpg", presets: ["to": "ana@example.com", "cc": "x\ny"]),
                    uses: 3, lastUsed: Date(timeIntervalSince1970: 1_799_000_000), score: 2.718281828459045)
            ]),
            complete: false)
        let read = try #require(SuggestionSnapshot.decode(Array(snapshot.encoded.utf8)))
        let candidate = try #require(read.candidates.all?.first)
        #expect(candidate.suggestion.title == "Ana Lima")
        #expect(candidate.suggestion.presets == ["to": "ana@example.com", "cc": "x y"])
        var expected = snapshot
        var made = try #require(snapshot.candidates.all)
        made[0].suggestion.title = "Ana Lima"
        made[0].suggestion.presets["cc"] = "x y"
        expected.candidates = SnapshotCandidates(made)
        #expect(read == expected)
        #expect(SuggestionSnapshot.decode(Array(snapshot.encoded.utf8.dropLast(2))) == nil)
        // A candidate line that cannot be read shows as nil, and the sheet reads the history.
        let broken = snapshot.encoded.replacingOccurrences(of: "candidate\t3\t", with: "candidate\tthree\t")
        let fixedEnd = broken.components(separatedBy: "\nend\t")[0] + "\n"
        let readBroken = try #require(SuggestionSnapshot.decode(Array((fixedEnd + "end\t\(fixedEnd.utf8.count)\n").utf8)))
        #expect(readBroken.candidates.all == nil)
    }
}
