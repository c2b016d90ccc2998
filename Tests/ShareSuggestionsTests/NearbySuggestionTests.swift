import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheet
import ShareSheetSystem
import ShareSheetTesting
import Testing

@testable import ShareSuggestions

/// Devices that come into range while a sheet is shown join its suggestions: after the history
/// and the pinned devices, before the contacts; never an impostor, never twice; only while
/// followed, and only for a sheet that offers AirDrop.
@Suite("Devices nearby in the suggestions", .serialized)
@MainActor
struct NearbySuggestionTests {
    let home: TemporaryHome
    let environment: HostEnvironment
    static let pinned = PinnedDevice(fingerprint: String(repeating: "d4", count: 32), alias: "Desk Laptop")
    static let kitchen = PinnedDevice(fingerprint: String(repeating: "a1", count: 32), alias: "Kitchen Phone")
    static let impostor = PinnedDevice(fingerprint: String(repeating: "ee", count: 32), alias: "Desk Laptop")

    init() throws {
        home = try TemporaryHome(prefix: "nearby-suggestions")
        environment = HostEnvironment(variables: home.environment)
        let folder = environment.directories.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy\r\nFN:Cy Ohara\r\nEMAIL:cy@example.com\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent("cy.vcf"))
        try ShareHistory(directories: environment.directories).record(
            HistoryEntry(
                time: Date(), activityType: ActivityType.mail.rawValue, activity: "mail",
                targets: [HistoryTarget(kind: .recipient, value: "ana@example.com")],
                items: [HistoryEntry.ItemCount(kind: "image", count: 1)], disposition: "sent"),
            keepDays: 90)
    }

    static let image = ItemKind.of(URL(fileURLWithPath: "/tmp/photo.png"))
    static let withAirDrop: [Activity] = [FakeActivity(type: .mail, title: "Mail"), FakeActivity(type: .airDrop, title: "AirDrop")]

    /// A source whose look for devices is the test's: `found` is kept to call, stops are counted.
    final class FakeNearby {
        var found: (@MainActor ([PinnedDevice]) -> Void)?
        var starts = 0
        var stops = 0
    }

    func source(_ nearby: FakeNearby) -> HistorySuggestionSource {
        HistorySuggestionSource.emptyProcessCaches()
        let source = HistorySuggestionSource(environment: environment)
        source.pinnedDevices = { [Self.pinned] }
        source.isImpostor = { alias, fingerprint in alias == Self.pinned.alias && fingerprint != Self.pinned.fingerprint }
        source.watchNearby = { found in
            nearby.starts += 1
            nearby.found = found
            return { nearby.stops += 1 }
        }
        return source
    }

    @Test("a device found joins after the history and the pinned ones, before the contacts; the impostor never")
    func devicesJoin() throws {
        defer { home.remove() }
        let nearby = FakeNearby()
        let source = source(nearby)
        let first = source.suggestions(for: [Self.image], offered: Self.withAirDrop).map(\.title)
        #expect(first == ["ana@example.com", "Desk Laptop", "Cy Ohara"])
        var changes: [[String]] = []
        source.followSuggestions(for: [Self.image], offered: Self.withAirDrop) { changes.append($0.map(\.title)) }
        #expect(nearby.starts == 1)
        let found = try #require(nearby.found)
        found([Self.impostor, Self.kitchen, Self.pinned])
        #expect(changes == [["ana@example.com", "Desk Laptop", "Kitchen Phone", "Cy Ohara"]])
        // The same devices again: nothing new to draw.
        found([Self.kitchen, Self.impostor])
        #expect(changes.count == 1)
        source.stopFollowingSuggestions()
        #expect(nearby.stops == 1)
        found([Self.kitchen, PinnedDevice(fingerprint: String(repeating: "b2", count: 32), alias: "Attic TV")])
        #expect(changes.count == 1, "nothing after the follow stopped")
    }

    @Test("a sheet without AirDrop looks for no device; the picked device is the found one, by fingerprint")
    func onlyWithAirDrop() throws {
        defer { home.remove() }
        let nearby = FakeNearby()
        let source = source(nearby)
        let mailOnly: [Activity] = [FakeActivity(type: .mail, title: "Mail")]
        _ = source.suggestions(for: [Self.image], offered: mailOnly)
        source.followSuggestions(for: [Self.image], offered: mailOnly) { _ in }
        #expect(nearby.starts == 0)
        let merged = HistorySuggestionSource.merging(nearby: [Self.kitchen], into: [], isImpostor: { _, _ in false }, limit: 8)
        #expect(merged.map(\.suggestion.presets) == [["to": Self.kitchen.fingerprint, "fingerprint": Self.kitchen.fingerprint]])
        #expect(merged.map(\.origin) == [.nearbyDevice])
    }

    @Test("the controller follows: its suggestions become the new list, to what the sheet offers, and a found device can be picked")
    func controllerFollows() throws {
        defer { home.remove() }
        let nearby = FakeNearby()
        let source = source(nearby)
        let registry = ActivityRegistry(environment: environment)
        let airDrop = FakeActivity(type: .airDrop, title: "AirDrop")
        let controller = ActivityViewController(
            activityItems: [URL(fileURLWithPath: "/tmp/photo.png")], applicationActivities: [FakeActivity(type: .mail, title: "Mail"), airDrop],
            registry: registry)
        controller.suggestionSource = source
        let presenter = RecordingPresenter(name: "sheet", log: CallLog())
        controller.present(with: presenter)
        var redrawn = 0
        controller.followSuggestions { redrawn += 1 }
        let found = try #require(nearby.found)
        found([Self.kitchen])
        #expect(redrawn == 1)
        #expect(controller.suggestions.map(\.title).contains("Kitchen Phone"))
        let kitchen = try #require(controller.suggestions.first { $0.title == "Kitchen Phone" })
        #expect(controller.select(kitchen))
        #expect(nearby.stops == 1, "a pick stops the look for devices")
        #expect(controller.pickedSuggestion?.presets["fingerprint"] == Self.kitchen.fingerprint)
    }
}
