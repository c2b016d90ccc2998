// The sheet as a window, driven the way assistive technology drives it: a private Xvfb, session
// bus and accessibility bus, and the AT-SPI driver finding controls by their accessible names.
import Foundation
import LocalTestSupport
import Testing

@Suite("The share window", .serialized)
struct SheetWindowTests {
    @Test("share notes.txt photo.png opens a window with Mail, Print, Copy and Save to Photos; Copy puts both on the X11 clipboard")
    func copyFromTheWindow() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path, photo.path])
            for title in ["Mail", "Print", "Copy", "Save to Photos"] {
                try await window.driver.wait(name: title, role: "push button")
            }
            try await window.driver.click(name: "Copy", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let targets = try output(
                of: "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], environment: desk.environment)
            #expect(targets.contains("image/png"), "TARGETS: \(targets)")
            #expect(targets.contains("text/plain") || targets.contains("UTF8_STRING"), "TARGETS: \(targets)")
        }
    }

    @Test("the header names a single photo and says its type and size, from the file alone")
    func headerOfOnePhoto() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([photo.path])
            try await window.driver.wait(name: "photo.png", role: "label")
            let size = ByteCountFormatter.string(fromByteCount: Int64(Samples.photo.count), countStyle: .decimal)
            let summary = try await window.driver.read(name: "PNG image, " + Self.glibSize(Samples.photo.count), role: "label")
            #expect(summary.hasPrefix("PNG image"), "summary: \(summary) (Foundation says \(size))")
            try await window.driver.wait(name: "Save to Photos", role: "push button")
            // The thumbnail, scaled off the main thread, replaces the type's icon.
            try await window.driver.wait(name: "Thumbnail of photo.png", role: "image")
            try await desk.saveScreenshot("share-window.png", of: window)
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    /// A size as GLib's g_format_size writes it: decimal units, one decimal from 1 kB.
    static func glibSize(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }

    @Test("the arrow keys move between the activities too")
    func arrowKeys() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", notes.path])
            try await window.driver.wait(name: "Mail", role: "push button")
            // Message has the focus; Right moves to Mail, whose form has a Subject (Message's has not).
            try await window.driver.key("Right", "Return")
            try await window.driver.wait(name: "Subject", role: "text")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["activity"] as? String == "mail", "result: \(run.standardOutput)")
        }
    }

    @Test("the window's close button dismisses the sheet: exit 130 and one result, said once")
    func closeButtonDismisses() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", notes.path])
            try await window.driver.wait(name: "Copy", role: "push button")
            // The frame's first action is the window manager's close, as the close button does.
            try await window.driver.click(name: "Share", role: "frame")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
            let lines = run.standardOutput.split(separator: "\n")
            #expect(lines.count == 1, "output: \(run.standardOutput)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "cancelled")
        }
    }

    @Test("a failure stays on screen with its message until Close, and the command ends with its status")
    func failureStaysOnScreen() async throws {
        try await WindowDesk.with { desk in
            let (_, photo) = try desk.notesAndPhoto()
            // Pictures is a file, so Save to Photos cannot make its folder there.
            try FileManager.default.createDirectory(at: desk.home.home, withIntermediateDirectories: true)
            try Data("not a folder".utf8).write(to: desk.home.pictures)
            let window = try desk.startShare([photo.path])
            try await window.driver.click(name: "Save to Photos", role: "push button")
            try await window.driver.wait(name: "Close", role: "push button")
            try await window.driver.wait(name: "Could not save", role: "label")
            // The backend's own sentence, which names the folder, is a detail now, behind Details.
            try await window.driver.click(name: "Details")
            try await window.driver.wait(name: "Close", role: "push button")
            try await desk.saveScreenshot("result-failure.png", of: window)
            let nodes = try await window.driver.dump()
            #expect(nodes.contains("Pictures"), "the failure page does not name the folder: \(nodes)")
            // Still there a moment later: it waits to be read.
            try await Task.sleep(for: .milliseconds(500))
            try await window.driver.wait(name: "Close", role: "push button")
            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 74 || run.status == 73, "share: \(run.standardError)")
            #expect(run.standardError.contains("Pictures"), "share: \(run.standardError)")
        }
    }

    @Test("the activities that are not offered, and why (with the window's own advice), are readable through AT-SPI under Not available")
    func unavailableReasonsAreReadable() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let listing = try await Share.run(["--list", "--json", notes.path], home: desk.home, extra: desk.session.environment)
            let list = try JSONSerialization.jsonObject(with: listing.output) as? [String: Any]
            let unavailable = try #require(list?["unavailable"] as? [[String: Any]])
            #expect(!unavailable.isEmpty)

            let window = try desk.startShare([notes.path])
            try await window.driver.click(name: "Not available")
            for entry in unavailable {
                let title = try #require(entry["title"] as? String)
                let reason = try #require(entry["reason"] as? String)
                // The same fact; each front end adds its own advice (SPEC §11): the command a
                // subcommand, the window a plain sentence.
                var shown = "\(title): \(reason)"
                if let advice = reason.range(of: ": run share accounts add ") {
                    let service = reason[advice.upperBound...]
                    shown = "\(title): \(reason[..<advice.lowerBound]). Add an account for \(service) in the accounts settings."
                }
                try await window.driver.wait(name: shown, role: "label")
            }
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("typing filters the activities by title and Enter picks the first one left; keys alone finish the share")
    func typeToFilterAndEnter() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path])
            try await window.driver.wait(name: "Mail", role: "push button")
            try await window.driver.type("cop")
            try await window.driver.waitGone(name: "Mail", role: "push button")
            try await window.driver.wait(name: "Copy", role: "push button")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let text = try output(of: "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: desk.environment)
            #expect(text.contains("notes.txt") || text.contains("Meet at six"), "clipboard: \(text)")
        }
    }

    @Test("Tab moves from the first activity to the next and Space picks it; Escape cancels its form")
    func tabAndSpace() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", notes.path])
            // For a text file the share row starts Message, Mail: the first has the focus.
            try await window.driver.wait(name: "Mail", role: "push button")
            try await window.driver.key("Tab", "space")
            try await window.driver.wait(name: "Subject", role: "text")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["activity"] as? String == "mail", "result: \(run.standardOutput)")
            #expect(result?["disposition"] as? String == "cancelled", "result: \(run.standardOutput)")
        }
    }
}
