// The sheet's activities as a grid that wraps to the window (issue #25, "a designed sheet"):
// every activity on screen at the default size and at 800×600, Enter in the filter acting on
// what was typed even when typed fast, the program named, every control named. Driven the way
// a person with a keyboard, or a screen reader, would: AT-SPI for what is shown, XTest keys.
import Foundation
import LocalTestSupport
import Testing

@Suite("The sheet's grid", .serialized)
struct SheetGridWindowTests {
    /// One node of the window as AT-SPI shows it, with its box in window coordinates.
    private struct Node {
        var role: String
        var name: String
        var states: [String]
        var box: (x: Int, y: Int, width: Int, height: Int)?

        init(_ object: [String: Any]) {
            role = object["role"] as? String ?? ""
            name = object["name"] as? String ?? ""
            states = object["states"] as? [String] ?? []
            if let numbers = object["extents"] as? [Int], numbers.count == 4 {
                box = (numbers[0], numbers[1], numbers[2], numbers[3])
            }
        }
    }

    private func nodes(of window: RunningWindow) async throws -> [Node] {
        let objects = try JSONSerialization.jsonObject(with: Data(try await window.driver.dumpWithExtents().utf8)) as? [[String: Any]]
        return (objects ?? []).map(Node.init)
    }

    /// The titles of the activities `share --list` offers for `files`, share row then action row.
    private func offered(_ files: [URL], on desk: WindowDesk) async throws -> [String] {
        let listing = try await Share.run(["--list", "--json"] + files.map(\.path), home: desk.home, extra: desk.session.environment)
        let list = try JSONSerialization.jsonObject(with: listing.output) as? [String: Any]
        let rows = (list?["share"] as? [[String: Any]] ?? []) + (list?["action"] as? [[String: Any]] ?? [])
        return rows.compactMap { $0["title"] as? String }
    }

    /// Expects each activity's button to be showing and wholly inside the window.
    private func expectAllInside(_ titles: [String], of window: RunningWindow, at size: String) async throws {
        let all = try await nodes(of: window)
        let frame = try #require(all.first { $0.role == "frame" }?.box, "no frame in the tree")
        for title in titles {
            let button = all.first { $0.role == "push button" && $0.name == title }
            let box = try #require(button?.box, "\(title): no button at \(size)")
            #expect(button?.states.contains("visible") == true, "\(title) is not visible at \(size)")
            let inside =
                box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0
                && box.x + box.width <= frame.width && box.y + box.height <= frame.height
            #expect(inside, "\(title) at \(box) is not inside the \(frame.width)×\(frame.height) window at \(size)")
        }
    }

    @Test("every activity offered for a photo is on screen inside the window, at the default size and at 800×600")
    func everyActivityShows() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let titles = try await offered([photo], on: desk)
            #expect(titles.count >= 7, "offered for a photo: \(titles)")
            let window = try desk.startShare([photo.path])
            for title in titles { try await window.driver.wait(name: title, role: "push button") }
            // The thumbnail, scaled off the main thread, has its final size in the header.
            try await window.driver.wait(name: "Thumbnail of photo.png", role: "image")
            try await expectAllInside(titles, of: window, at: "the default size")
            try await desk.saveScreenshot("sheet-grid-default.png", of: window)

            try await window.driver.resize(width: 800, height: 600)
            try await expectAllInside(titles, of: window, at: "800×600")
            try await desk.saveScreenshot("sheet-grid-800x600.png", of: window)

            // Opening "Not available" adds to the page, which scrolls; no tile gives up height.
            let before = try await nodes(of: window).filter { $0.role == "push button" && titles.contains($0.name) }
            try await window.driver.click(name: "Not available")
            try await window.driver.wait(name: "Open In…", role: "push button")
            try await Task.sleep(for: .milliseconds(300))
            let after = try await nodes(of: window).filter { $0.role == "push button" && titles.contains($0.name) }
            #expect(after.map { $0.box?.height } == before.map { $0.box?.height }, "tile heights changed")
            try await desk.saveScreenshot("sheet-grid-not-available.png", of: window)
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("with a suggestion row above the rows, every activity offered for a photo still shows at the default size")
    func everyActivityShowsUnderSuggestions() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let titles = try await offered([photo], on: desk)
            let ana: [String: Any] = [
                "id": "mail:ana@example.com", "activity": "mail", "title": "Ana Lima", "subtitle": "ana@example.com",
                "icon": "avatar-default", "presets": ["to": "ana@example.com"],
            ]
            let cy: [String: Any] = [
                "id": "mail:cy@example.com", "activity": "mail", "title": "Cy Ohara-Nakamura", "subtitle": "cy@example.com",
                "icon": "avatar-default", "presets": ["to": "cy@example.com"],
            ]
            let suggestions = try [ana, cy].map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            let window = try desk.startApp(["--suggestion", suggestions[0], "--suggestion", suggestions[1], photo.path])
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            for title in titles { try await window.driver.wait(name: title, role: "push button") }
            try await window.driver.wait(name: "Thumbnail of photo.png", role: "image")
            try await expectAllInside(titles, of: window, at: "the default size, under a suggestion")
            // A name that wraps gets its second line: the row is as tall as its tallest caption
            // (a row that scrolls sideways measured it unwrapped and cut the second line).
            let all = try await nodes(of: window)
            let oneLine = try #require(all.first { $0.role == "label" && $0.name == "Ana Lima" }?.box)
            let twoLines = try #require(all.first { $0.role == "label" && $0.name == "Cy Ohara-Nakamura" }?.box)
            #expect(twoLines.height >= oneLine.height * 2 - 2, "the wrapped caption has \(twoLines.height) px, one line \(oneLine.height)")
            try await desk.saveScreenshot("sheet-grid-suggestion.png", of: window)
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("\"contact\" typed fast and Enter at once opens Assign to Contact, not the activity that was first before the filter applied")
    func enterActsOnWhatWasTyped() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", photo.path])
            try await window.driver.wait(name: "Assign to Contact", role: "push button")
            // One driver call: the letters and Enter 10 ms apart, well inside the filter's pause.
            try await window.driver.type("contact\n")
            try await window.driver.waitGone(name: "Assign to Contact", role: "push button")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["activity"] as? String == "contact", "result: \(run.standardOutput)")
        }
    }

    @Test("Down moves from the share row into the action grid, and down a line inside the grid to the tile below")
    func arrowsMoveThroughTheGrid() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.wait(name: "Open In…", role: "push button")
            // Narrow enough that the six actions take two lines, so there is a tile below Print.
            try await window.driver.resize(width: 420, height: 600)
            try await Task.sleep(for: .milliseconds(300))
            // Message, the first activity, has the focus.
            try await window.driver.key("Down")
            let first = try await nodes(of: window).filter { $0.states.contains("focused") }
            #expect(first.map(\.name) == ["Print"])
            try await window.driver.key("Down")
            let second = try await nodes(of: window).filter { $0.states.contains("focused") }
            let print = try #require(first.first?.box)
            let below = try #require(second.first?.box, "nothing focused after Down")
            #expect(second.first?.role == "push button" && below.x == print.x && below.y > print.y, "\(second.map(\.name)) at \(below)")
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("the program is named ShareSheet: the accessible application and the window's class")
    func programIsNamed() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.wait(name: "Copy", role: "push button")
            let facts = try await window.driver.window()
            #expect(facts.application == "ShareSheet")
            #expect(facts.wmClass == ["ShareSheet", "ShareSheet"])
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }

    @Test("every control has a name, Not available included, and the focus never rests on a nameless node while filtering")
    func everyControlIsNamed() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.wait(name: "Not available")
            let controls = try await nodes(of: window).filter { $0.states.contains("focusable") && $0.states.contains("visible") }
            #expect(!controls.isEmpty)
            for control in controls { #expect(!control.name.isEmpty, "a nameless \(control.role)") }
            #expect(controls.contains { $0.name == "Not available" }, "\(controls.map(\.name))")

            try await window.driver.type("co")
            try await window.driver.waitGone(name: "Mail", role: "push button")
            // Typing, then moving on with Tab as a person would after filtering.
            for step in 0..<4 {
                let focused = try await nodes(of: window).filter { $0.states.contains("focused") }
                #expect(!focused.isEmpty && focused.allSatisfy { !$0.name.isEmpty }, "step \(step): \(focused.map { "\($0.role) '\($0.name)'" })")
                try await window.driver.key("Tab")
            }
            try await window.driver.key("Escape")
            _ = try await window.finish()
        }
    }
}
