// The suggestions row (SPEC §12, issue #26) in the window, driven through AT-SPI: round avatars
// above the share row, named by what picking them does, reached and picked by keys, filtered
// with the activities, and absent when there is nothing to suggest.
import Foundation
import LocalTestSupport
import Testing

@Suite("Suggestions in the window", .serialized)
struct SuggestionWindowTests {
    /// A suggestion as sheet-window-app takes it.
    private static func suggestion(
        _ id: String, _ activity: String, _ title: String, subtitle: String = "", icon: String = "avatar-default",
        photo: URL? = nil, presets: [String: String]
    ) throws -> [String] {
        var object: [String: Any] = ["id": id, "activity": activity, "title": title, "subtitle": subtitle, "icon": icon, "presets": presets]
        if let photo { object["photo"] = photo.path }
        return ["--suggestion", String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)]
    }

    /// People, a device and an application, best first, as an application's own list gives them.
    private static func people(photo: URL) throws -> [String] {
        try suggestion("mail:ana@example.com", "mail", "Ana Lima", subtitle: "ana@example.com", photo: photo, presets: ["to": "ana@example.com"])
            + suggestion("mail:bo@example.com", "mail", "bo@example.com", subtitle: "bo@example.com", presets: ["to": "bo@example.com"])
            + suggestion("message:+351912345678", "message", "+351 912 345 678", presets: ["to": "+351912345678"])
            + suggestion("mail:cy@example.com", "mail", "Cy Ohara-Nakamura Wellington", subtitle: "cy@example.com", presets: ["to": "cy@example.com"])
            + suggestion("airdrop:3f1c", "airdrop", "Ana's Pixel", subtitle: "Pixel 8", icon: "phone", presets: ["to": "3f1c"])
    }

    /// True for the name of an avatar these tests give (the activities' own titles, such as
    /// "Save to Photos", have " to " too).
    private static func isSuggestion(_ name: String) -> Bool {
        ["Mail to ", "Message to ", "AirDrop to "].contains { name.hasPrefix($0) }
    }

    /// Every visible node of the window as AT-SPI shows it.
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    private func buttons(of window: RunningWindow) async throws -> [String] {
        try await nodes(of: window).filter { $0["role"] as? String == "push button" }.compactMap { $0["name"] as? String }
    }

    @Test("the avatars are push buttons named by what picking them does, best first, before the activities; the first has the focus")
    func avatarsHaveAccessibleNames() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp(try Self.people(photo: photo) + [photo.path])
            let names = ["Mail to Ana Lima", "Mail to bo@example.com", "Message to +351 912 345 678", "Mail to Cy Ohara-Nakamura Wellington", "AirDrop to Ana's Pixel"]
            for name in names { try await window.driver.wait(name: name, role: "push button") }
            // Ana's own photo, decoded off the main thread, replaces her initials.
            try await window.driver.wait(name: "Photo of Ana Lima", role: "image")
            let shown = try await buttons(of: window)
            let order = names.compactMap { shown.firstIndex(of: $0) }
            #expect(order == order.sorted() && order.count == names.count, "\(shown)")
            let mail = try #require(shown.firstIndex(of: "Mail"), "\(shown)")
            #expect(order.allSatisfy { $0 < mail }, "the row is above the share row: \(shown)")
            let all = try await nodes(of: window)
            let ana = all.first { $0["name"] as? String == "Mail to Ana Lima" && $0["role"] as? String == "push button" }
            #expect((ana?["states"] as? [String])?.contains("focused") == true, "\(String(describing: ana))")
            #expect(ana?["description"] as? String == "ana@example.com", "\(String(describing: ana))")
            // Initials where there is no photo; an icon where there are no letters.
            let labels = all.filter { $0["role"] as? String == "label" }.compactMap { $0["name"] as? String }
            #expect(labels.contains("B") && labels.contains("CW"), "\(labels)")
            try await desk.saveScreenshot("suggestions.png", of: window)
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "app: \(run.standardError)")
        }
    }

    @Test("Enter on the first avatar opens Mail with To filled and the focus on Subject; Escape cancels as for any form")
    func enterPicksTheFirst() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp(try Self.people(photo: photo) + [notes.path])
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.key("Return")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "ana@example.com")
            let subject = try await nodes(of: window).first { $0["name"] as? String == "Subject" && $0["role"] as? String == "text" }
            #expect((subject?["states"] as? [String])?.contains("focused") == true, "\(String(describing: subject))")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "app: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["activity"] as? String == "mail", "result: \(run.standardOutput)")
        }
    }

    @Test("Right moves along the row and Space picks: Mail to bo@example.com")
    func arrowsMoveAlongTheRow() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp(try Self.people(photo: photo) + [notes.path])
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.key("Right", "space")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "bo@example.com")
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("typing filters the avatars by name or address, not by activity; Enter picks the first avatar left")
    func typingFiltersTheRow() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp(try Self.people(photo: photo) + [notes.path])
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.type("mail")
            // "mail" names the activity and no person: the row goes, Mail stays.
            try await window.driver.waitGone(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.wait(name: "Mail", role: "push button")
            #expect(try await !buttons(of: window).contains(where: Self.isSuggestion))
            try await window.driver.fill(name: "Filter activities", text: "bo@")
            try await window.driver.waitGone(name: "Mail", role: "push button")
            let shown = try await buttons(of: window)
            #expect(shown.contains("Mail to bo@example.com") && !shown.contains { $0.hasPrefix("Mail to C") }, "\(shown)")
            try await window.driver.fill(name: "Filter activities", text: "zzz")
            try await window.driver.waitGone(name: "Mail to bo@example.com", role: "push button")
            try await window.driver.wait(name: "No activity matches", role: "label")
            try await window.driver.fill(name: "Filter activities", text: "lima")
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.key("Return")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "ana@example.com")
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("without suggestions there is no row: the first activity has the focus, as before")
    func noSuggestionsNoRow() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startApp([notes.path])
            try await window.driver.wait(name: "Mail", role: "push button")
            let shown = try await buttons(of: window)
            #expect(!shown.contains(where: Self.isSuggestion), "\(shown)")
            // Message leads a text file's share row and has the focus; Right, Return picks Mail.
            try await window.driver.key("Right", "Return")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "")
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }
}
