import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSheetTesting
import Testing

@testable import ShareSuggestions

/// The suggestions read the contacts only when they change the answer, and then through the
/// index, with the contact's name and photo.
@Suite("Suggestions and the contacts", .serialized)
@MainActor
struct SuggestionContactsTests {
    let home: TemporaryHome
    let environment: HostEnvironment

    init() throws {
        home = try TemporaryHome(prefix: "suggestion-contacts")
        environment = HostEnvironment(variables: home.environment)
        let folder = environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = "/9j/4AAQSkZJRgABAQ=="
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:Ana Lima\r\nEMAIL:ana@example.com\r\n"
            + "PHOTO;ENCODING=b;TYPE=JPEG:\(photo)\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent("ana.vcf"))
    }

    static let image = ItemKind.of(URL(fileURLWithPath: "/tmp/photo.png"))
    static let offered: [Activity] = [
        FakeActivity(type: .mail, title: "Mail"), FakeActivity(type: .print, title: "Print"), FakeActivity(type: .airDrop, title: "AirDrop"),
    ]

    func record(_ activityType: ActivityType, _ activity: String, to targets: [HistoryTarget]) throws {
        try ShareHistory(directories: environment.directories).record(
            HistoryEntry(
                time: Date(), activityType: activityType.rawValue, activity: activity, targets: targets,
                items: [HistoryEntry.ItemCount(kind: "image", count: 1)], disposition: "sent"),
            keepDays: 90)
    }

    @Test("a person the history ranks is named from the contacts, with the photo the index wrote")
    func namedWithPhoto() throws {
        defer { home.remove() }
        try record(.mail, "mail", to: [HistoryTarget(kind: .recipient, value: "ana@example.com")])
        HistorySuggestionSource.emptyProcessCaches()
        let suggestions = HistorySuggestionSource(environment: environment).suggestions(for: [Self.image], offered: Self.offered)
        let ana = try #require(suggestions.first)
        #expect(ana.title == "Ana Lima")
        #expect(ana.subtitle == "Mail · ana@example.com")
        let path = try #require(ana.photoPath)
        #expect(path.hasPrefix(environment.directories.cacheHome.path + "/sharesheet/avatars/"))
        #expect(FileManager.default.contents(atPath: path) == Data(base64Encoded: "/9j/4AAQSkZJRgABAQ=="))
    }

    @Test("eight printers and devices from the history, and nobody to name: the contacts are not read")
    func contactsNotRead() throws {
        defer { home.remove() }
        for number in 1...8 {
            try record(.print, "print", to: [HistoryTarget(kind: .printer, value: "Printer \(number)")])
        }
        HistorySuggestionSource.emptyProcessCaches()
        let before = ContactIndex.rebuilds
        let suggestions = HistorySuggestionSource(environment: environment).suggestions(for: [Self.image], offered: Self.offered)
        #expect(suggestions.count == 8)
        #expect(suggestions.allSatisfy { $0.activityType == .print })
        #expect(ContactIndex.rebuilds == before)
        #expect(!FileManager.default.fileExists(atPath: ContactIndex.indexURL(in: environment.directories).path))
        // With room left (`--explain` lists every candidate), they are.
        let all = HistorySuggestionSource(environment: environment).candidates(for: [Self.image], offered: Self.offered)
        #expect(all.contains { $0.origin == .contact && $0.suggestion.title == "Ana Lima" })
        #expect(ContactIndex.rebuilds == before + 1)
    }

    @Test("the next sheet's suggestions follow a new share and a renamed contact")
    func keptSuggestionsFollowChanges() throws {
        defer { home.remove() }
        let folder = environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        func settleFolder() {
            var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, folder.path, &times, 0) == 0)
        }
        func titles() -> [String] {
            HistorySuggestionSource(environment: environment).suggestions(for: [Self.image], offered: Self.offered).map(\.title)
        }
        try record(.mail, "mail", to: [HistoryTarget(kind: .recipient, value: "ana@example.com")])
        settleFolder()
        HistorySuggestionSource.emptyProcessCaches()
        #expect(titles().first == "Ana Lima")
        #expect(titles().first == "Ana Lima")
        // Khard renames the card into place: the folder's time moves.
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:Ana Souza\r\nEMAIL:ana@example.com\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent(".ana.tmp"))
        #expect(rename(folder.appendingPathComponent(".ana.tmp").path, folder.appendingPathComponent("ana.vcf").path) == 0)
        #expect(titles().first == "Ana Souza")
        settleFolder()
        #expect(titles().first == "Ana Souza")
        for _ in 1...2 { try record(.mail, "mail", to: [HistoryTarget(kind: .recipient, value: "bo@example.com")]) }
        #expect(titles().first == "bo@example.com")
    }
}
