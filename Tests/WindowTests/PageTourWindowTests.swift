// Every page a photo's share can reach (issue #25): the sheet, then the page each activity
// shows when picked, each photographed for a person to look at (SHARESHEET_SCREENSHOTS) and
// read for command-line or configuration syntax, which no page may show. Real peers: the
// real `share --gui` on a private desktop, nothing configured.
import Foundation
import LocalTestSupport
import Testing

@Suite("A tour of the window's pages", .serialized)
struct PageTourWindowTests {
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    /// The accessible text that reads like an `--option`, a `[group]` heading or a `key=`.
    private func syntax(in window: RunningWindow) async throws -> [String] {
        let texts = try await nodes(of: window).flatMap { node in ["name", "description", "text"].compactMap { node[$0] as? String } }
        return texts.filter { text in
            text.contains(/--[A-Za-z]/) || text.contains(/\[[A-Za-z][A-Za-z0-9_-]*\]/) || text.contains(/[A-Za-z0-9_-]+=/)
        }
    }

    private func shows(_ name: String, role: String, in window: RunningWindow) async throws -> Bool {
        try await nodes(of: window).contains { $0["name"] as? String == name && $0["role"] as? String == role }
    }

    @Test("each activity offered for a photo opens a page with Back and Cancel, in plain words, photographed")
    func everyPageIsPlain() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let listing = try await Share.run(["--list", "--json", photo.path], home: desk.home, extra: desk.session.environment)
            let list = try JSONSerialization.jsonObject(with: listing.output) as? [String: Any]
            let rows = (list?["share"] as? [[String: Any]] ?? []) + (list?["action"] as? [[String: Any]] ?? [])
            let titles = rows.compactMap { $0["title"] as? String }
            #expect(titles.count >= 7, "\(titles)")
            var seen: [String: [String]] = [:]
            var withPages: [String] = []
            for title in titles {
                let window = try desk.startShare([photo.path], extra: ["CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"])
                try await window.driver.wait(name: title, role: "push button")
                if title == titles.first {
                    seen["the sheet"] = try await syntax(in: window)
                    try await desk.saveScreenshot("page-sheet.png", of: window)
                }
                try await window.driver.click(name: title, role: "push button")
                // A form has Back to the sheet; an activity that needs no questions acts at once.
                let deadline = Date().addingTimeInterval(8)
                var hasPage = false
                while Date() < deadline, DesktopSession.isRunning(window.started.pid) {
                    // An activity that acts at once may end the process while its tree is read.
                    if (try? await shows("Back", role: "push button", in: window)) == true {
                        hasPage = true
                        break
                    }
                    try await Task.sleep(for: .milliseconds(200))
                }
                if hasPage {
                    withPages.append(title)
                    // Pictures and lists fill in off the main loop: let them.
                    try await Task.sleep(for: .milliseconds(800))
                    let slug = title.lowercased().filter { $0.isLetter || $0 == " " }.replacingOccurrences(of: " ", with: "-")
                    try await desk.saveScreenshot("page-\(slug).png", of: window)
                    seen[title] = try await syntax(in: window)
                    #expect(try await shows("Cancel", role: "push button", in: window), "\(title): no Cancel")
                    try await window.driver.click(name: "Cancel", role: "push button")
                } else if DesktopSession.isRunning(window.started.pid), let texts = try? await syntax(in: window) {
                    seen[title] = texts
                    try? await window.driver.key("Escape")
                }
                _ = try await window.finish(timeout: 30)
            }
            for (page, texts) in seen {
                #expect(texts.isEmpty, "\(page): option or configuration syntax: \(texts)")
            }
            // Mail, Message, Print and AirDrop always ask something first.
            for title in ["Mail", "Message", "Print", "AirDrop"] where titles.contains(title) {
                #expect(withPages.contains(title), "\(title) showed no page: \(withPages)")
            }
        }
    }
}
