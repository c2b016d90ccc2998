// People and places first (issue #26) for devices: the suggestions the service lists for an
// image include the devices the person pinned (`share devices pin`) and those AirDropped to
// before, named by alias, and never a device that shows a pinned alias with another
// certificate, however often the history names it.
import Foundation
import LocalTestSupport
import ShareHistory
import ShareSheetSystem
import Testing

@Suite("Share service: device suggestions", .serialized)
struct ServiceDeviceSuggestionTests {
    static let airDropType = "com.apple.UIKit.activity.AirDrop"
    static let ana = String(repeating: "A1", count: 32)
    static let impostor = String(repeating: "B2", count: 32)
    static let desk = String(repeating: "C3", count: 32)

    @Test("ListSuggestions for an image: the pinned devices and the one sent to, by fingerprint; the impostor under a pinned alias never")
    func pinnedSuggestedImpostorNot() async throws {
        let home = try TemporaryHome(prefix: "service-device-suggestions")
        defer { home.remove() }
        let directories = XDGDirectories(environment: home.environment)
        // The impostor was sent to three times (before Ana's phone was pinned), Ana's phone once.
        let history = ShareHistory(directories: directories)
        let now = Date()
        for (hoursAgo, fingerprint) in [(4, Self.impostor), (3, Self.impostor), (2, Self.impostor), (1, Self.ana)] {
            _ = try history.record(
                HistoryEntry(
                    time: now.addingTimeInterval(-Double(hoursAgo) * 3600), activityType: Self.airDropType, activity: "airdrop",
                    targets: [HistoryTarget(kind: .device, value: fingerprint, name: "Ana's Pixel")], items: [.init(kind: "image", count: 1)],
                    disposition: "sent"),
                keepDays: 90)
        }
        let store = directories.shareSheetData.appendingPathComponent("devices.json")
        try Data(
            """
            {"version": 1, "devices": [
            {"fingerprint": "\(Self.ana)", "alias": "Ana's Pixel", "deviceModel": null, "deviceType": "mobile", "address": null, \
            "protocol": "https", "lastSeen": null, "pinned": true},
            {"fingerprint": "\(Self.desk)", "alias": "Desk", "deviceModel": null, "deviceType": "desktop", "address": null, \
            "protocol": "https", "lastSeen": null, "pinned": true}]}
            """.utf8
        ).write(to: store)
        let photo = try home.file("photo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 64))

        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        let suggestions = try await ServiceClient(bus: bus).listSuggestions(["--file", photo.path + ":image/png"])
        let devices = suggestions.filter { $0["activity"] as? String == "airdrop" }
        let fingerprints = devices.compactMap { ($0["presets"] as? [String: String])?["fingerprint"] }
        #expect(Set(fingerprints) == [Self.ana, Self.desk], "\(suggestions)")
        #expect(!fingerprints.contains(Self.impostor), "the impostor was suggested: \(devices)")
        let ana = try #require(devices.first { ($0["presets"] as? [String: String])?["fingerprint"] == Self.ana })
        #expect(ana["title"] as? String == "Ana's Pixel")
        #expect(ana["presets"] as? [String: String] == ["to": Self.ana, "fingerprint": Self.ana])
    }
}
