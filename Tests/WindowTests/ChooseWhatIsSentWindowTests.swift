// Choosing what is sent in the window (SPEC §13), before the pick: a check on each item of the
// header's strip, the photos' size and location under Options, text edited in place. Our own
// application (sheet-window-app) offers "Record Items", which writes what it received and the
// choices the window ended with, so each test checks what an activity got.
import Foundation
import LocalTestSupport
import Testing

@Suite("Choosing what is sent in the window", .serialized)
struct ChooseWhatIsSentWindowTests {
    @Test("three items, the second unchecked in the strip: the title says 2 of 3 items and the activity receives the first and the third")
    func leaveTheSecondItemOut() async throws {
        try await WindowDesk.with { desk in
            let files = try ["agenda.txt", "budget.txt", "contacts.txt"].map { try desk.home.file($0, Data("\($0)\n".utf8)) }
            let record = desk.home.root.appendingPathComponent("record.json")
            let window = try desk.startApp(files.map(\.path), extra: ["SHEET_WINDOW_APP_RECORD": record.path])
            #expect(try await Self.states(of: "Send budget.txt", role: "check box", in: window).contains("checked"))
            try await window.driver.click(name: "Send budget.txt", role: "check box")
            try await window.driver.wait(name: "2 of 3 items", role: "label")
            #expect(try await !Self.states(of: "Send budget.txt", role: "check box", in: window).contains("checked"))
            #expect(try await Self.states(of: "Send agenda.txt", role: "check box", in: window).contains("checked"))
            try await desk.saveScreenshot("choose-items-left-out.png", of: window)
            try await window.driver.click(name: "Record Items", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "app: \(run.standardError)")
            let recorded = try Self.record(record)
            #expect(recorded.items == ["agenda.txt", "contacts.txt"], "record: \(recorded)")
            #expect(recorded.leftOut == [1], "record: \(recorded)")
        }
    }

    @Test("keys alone: Shift+Tab from the first activity past the filter reaches the last item's check, Space leaves it out, the focus stays on it")
    func checksByKeyboard() async throws {
        try await WindowDesk.with { desk in
            let files = try ["agenda.txt", "budget.txt", "contacts.txt"].map { try desk.home.file($0, Data("\($0)\n".utf8)) }
            let window = try desk.startApp(files.map(\.path))
            try await window.driver.wait(name: "Send contacts.txt", role: "check box")
            try await window.driver.key("Shift_L+Tab", "Shift_L+Tab", "space")
            try await window.driver.wait(name: "2 of 3 items", role: "label")
            let states = try await Self.states(of: "Send contacts.txt", role: "check box", in: window)
            #expect(!states.contains("checked") && states.contains("focused"), "states: \(states)")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "app: \(run.standardError)")
        }
    }

    @Test("leaving the only photo out moves Save to Photos to Not available; checking it again brings it back")
    func rowsFollowTheItemsSent() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp([notes.path, photo.path])
            try await window.driver.wait(name: "Save to Photos", role: "push button")
            try await window.driver.click(name: "Send photo.png", role: "check box")
            try await window.driver.wait(name: "1 of 2 items", role: "label")
            try await window.driver.waitGone(name: "Save to Photos", role: "push button")
            try await window.driver.click(name: "Send photo.png", role: "check box")
            try await window.driver.wait(name: "Save to Photos", role: "push button")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "app: \(run.standardError)")
        }
    }

    @Test("a photo: Options has Photo size and Include location; Small and the switch reach the activity, and the bytes at each choice are shown")
    func photoSizeAndLocation() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let record = desk.home.root.appendingPathComponent("record.json")
            let window = try desk.startApp(
                [photo.path], extra: ["SHEET_WINDOW_APP_RECORD": record.path, "SHEET_WINDOW_APP_FAKE_SIZES": "1"])
            try await window.driver.click(name: "Options")
            try await window.driver.wait(name: "Photo size")
            try await window.driver.wait(name: "Include location", role: "check box")
            #expect(try await !Self.states(of: "Include location", role: "check box", in: window).contains("checked"))
            try await window.driver.wait(
                name: "Location and camera serial numbers are removed when photos leave this computer.", role: "label")
            // The app's preparer: 100 bytes a pixel of the long edge, 1000 fewer without the location.
            try await window.driver.wait(name: "Original · 399.0 kB", role: "label")
            try await window.driver.click(name: "Small", role: "radio button")
            try await window.driver.wait(name: "Small · 63.0 kB", role: "label")
            try await window.driver.click(name: "Include location", role: "check box")
            try await window.driver.wait(name: "Small · 64.0 kB", role: "label")
            #expect(try await Self.states(of: "Include location", role: "check box", in: window).contains("checked"))
            try await window.driver.click(name: "Record Items", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "app: \(run.standardError)")
            let recorded = try Self.record(record)
            #expect(recorded.items == ["photo.png"], "record: \(recorded)")
            #expect(recorded.imageSize == "small", "record: \(recorded)")
            #expect(recorded.keepsLocation == true, "record: \(recorded)")
        }
    }

    @Test("with the real item preparer, choosing Small shows the photo's bytes at that size")
    func byteCountFromTheRealPreparer() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startApp([photo.path])
            try await window.driver.click(name: "Options")
            try await window.driver.click(name: "Small", role: "radio button")
            let shown = try await Self.waitForLabel(startingWith: "Small · ", in: window)
            #expect(shown.hasSuffix("B"), "label: \(shown)")
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("a text item edited under Options is what the activity receives; the photo beside it is unchanged")
    func editTheText() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let record = desk.home.root.appendingPathComponent("record.json")
            let window = try desk.startApp(
                ["--text", "Meet at six by the river.", photo.path],
                extra: ["SHEET_WINDOW_APP_RECORD": record.path, "SHEET_WINDOW_APP_FAKE_SIZES": "1"])
            try await window.driver.click(name: "Options")
            try await window.driver.fill(name: "Text of item 1", text: "Meet at seven by the bridge.", role: "text")
            try await window.driver.wait(name: "Original · 399.0 kB", role: "label")
            try await desk.saveScreenshot("choose-what-is-sent.png", of: window)
            try await window.driver.click(name: "Record Items", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "app: \(run.standardError)")
            let recorded = try Self.record(record)
            #expect(recorded.items == ["Meet at seven by the bridge.", "photo.png"], "record: \(recorded)")
            #expect(recorded.editedTexts == ["0": "Meet at seven by the bridge."], "record: \(recorded)")
        }
    }

    // MARK: Helpers

    /// What "Record Items" wrote.
    struct Record: CustomStringConvertible {
        var items: [String]
        var leftOut: [Int]
        var imageSize: String?
        var keepsLocation: Bool?
        var editedTexts: [String: String]
        var description: String { "items \(items), left out \(leftOut), size \(imageSize ?? "-"), location \(String(describing: keepsLocation)), texts \(editedTexts)" }
    }

    static func record(_ file: URL) throws -> Record {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let choices = object["choices"] as? [String: Any] ?? [:]
        return Record(
            items: object["items"] as? [String] ?? [], leftOut: choices["leftOut"] as? [Int] ?? [],
            imageSize: choices["imageSize"] as? String, keepsLocation: choices["keepsLocation"] as? Bool,
            editedTexts: choices["editedTexts"] as? [String: String] ?? [:])
    }

    /// The AT-SPI states of the visible node named `name` with the role `role` (GTK 4.8 shows a
    /// switch as a check box).
    static func states(of name: String, role: String, in window: RunningWindow) async throws -> [String] {
        try await window.driver.wait(name: name, role: role)
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        let node = try #require(
            nodes.first { $0["name"] as? String == name && $0["role"] as? String == role }, "no \(role) named \(name)")
        return node["states"] as? [String] ?? []
    }

    /// Waits for a label whose text starts with `prefix` (a size the test cannot know ahead).
    static func waitForLabel(startingWith prefix: String, in window: RunningWindow) async throws -> String {
        for _ in 0..<100 {
            let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
            if let name = nodes.compactMap({ $0["role"] as? String == "label" ? $0["name"] as? String : nil })
                .first(where: { $0.hasPrefix(prefix) })
            {
                return name
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("no label starting with \(prefix)")
        return ""
    }
}
