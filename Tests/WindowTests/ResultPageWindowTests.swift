// The window's result pages (SPEC §7, §11): a fallback or a failure stays until the person
// closes it, speaks in a title and plain sentences, offers the buttons that follow it up (Open
// Outbox, Open PDF, Show in Files) and never shows an option or configuration syntax. Real
// peers: the real `share --gui`, no mail server configured, no CUPS server reachable.
import Foundation
import LocalTestSupport
import Testing

@Suite("The window's result pages", .serialized)
struct ResultPageWindowTests {
    /// Every visible node of the window as AT-SPI shows it.
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    /// The accessible text of every node that reads like an option or configuration syntax: a
    /// `--option`, a `[group]` heading or a `key=` assignment. Empty when the page is plain.
    private func syntax(in window: RunningWindow) async throws -> [String] {
        let shown = try await nodes(of: window)
        let texts = shown.flatMap { node in ["name", "description", "text"].compactMap { node[$0] as? String } }
        let option = /--[A-Za-z]/
        let group = /\[[A-Za-z][A-Za-z0-9_-]*\]/
        let assignment = /[A-Za-z0-9_-]+=/
        return texts.filter { text in
            text.contains(option) || text.contains(group) || text.contains(assignment)
        }
    }

    /// Whether a push button named `name` is shown now.
    private func shows(_ name: String, in window: RunningWindow) async throws -> Bool {
        try await nodes(of: window).contains { $0["name"] as? String == name && $0["role"] as? String == "push button" }
    }

    @Test("Mail with no server set up: 'Mail is waiting in the outbox' stays 10 s later, with Open Outbox, Settings… and Close, in plain words")
    func queuedMailStays() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", "--to", "bo@example.com", notes.path])
            try await window.driver.wait(name: "Mail", role: "push button")
            var seen = try await syntax(in: window)
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.wait(name: "Send", role: "push button")
            seen += try await syntax(in: window)
            try await window.driver.click(name: "Send", role: "push button")
            // A mail may first wait to be taken back (Undo); Send Now lets it go at once.
            let deadline = Date().addingTimeInterval(30)
            while !(try await shows("Open Outbox", in: window)), Date() < deadline {
                if try await shows("Send Now", in: window) {
                    seen += try await syntax(in: window)
                    try? await window.driver.click(name: "Send Now", role: "push button")
                }
                try await Task.sleep(for: .milliseconds(300))
            }
            try await window.driver.wait(name: "Mail is waiting in the outbox", role: "label")
            try await desk.saveScreenshot("result-mail-queued.png", of: window)
            try await Task.sleep(for: .seconds(10))
            try await window.driver.wait(name: "Mail is waiting in the outbox", role: "label")
            try await window.driver.wait(name: "Open Outbox", role: "push button")
            try await window.driver.wait(name: "Settings…", role: "push button")
            try await window.driver.wait(name: "Close", role: "push button")
            try await window.driver.wait(name: "Details", role: nil)
            seen += try await syntax(in: window)
            let labels = try await nodes(of: window).filter { $0["role"] as? String == "label" }.compactMap { $0["name"] as? String }
            #expect(labels.contains { $0.contains("mail server") }, "says what would send it: \(labels)")
            // Details, opened, still words it for a person.
            try await window.driver.click(name: "Details")
            try await window.driver.wait(name: "It concerns the setting “smtp” in the mail settings.", role: "label")
            try await desk.saveScreenshot("result-mail-queued-details.png", of: window)
            seen += try await syntax(in: window)
            #expect(seen.isEmpty, "option or configuration syntax in the window: \(seen)")

            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 75, "queued: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "queued", "\(run.standardOutput)")
        }
    }

    @Test("Print with no printer reachable: 'Saved as PDF' with Open PDF and Show in Files, the PDF exists, plain words throughout")
    func printSavedAsPDF() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            // Nothing listens on this port: no CUPS server, so no printer.
            let window = try desk.startShare(
                ["--json", notes.path], extra: ["CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"])
            try await window.driver.wait(name: "Print", role: "push button")
            var seen = try await syntax(in: window)
            try await window.driver.click(name: "Print", role: "push button")
            try await window.driver.wait(name: "No printer is set up: the document will be saved as PDF.", role: "label")
            seen += try await syntax(in: window)
            try await window.driver.click(name: "Save PDF", role: "push button")
            try await window.driver.wait(name: "Saved as PDF", role: "label")
            try await window.driver.wait(name: "Open PDF", role: "push button")
            try await window.driver.wait(name: "Show in Files", role: "push button")
            try await window.driver.wait(name: "Close", role: "push button")
            try await desk.saveScreenshot("result-print-pdf.png", of: window)
            let labels = try await nodes(of: window).filter { $0["role"] as? String == "label" }.compactMap { $0["name"] as? String }
            #expect(labels.contains { $0.contains("no printer") && $0.contains(".pdf") }, "says where: \(labels)")
            seen += try await syntax(in: window)
            #expect(seen.isEmpty, "option or configuration syntax in the window: \(seen)")
            try await Task.sleep(for: .seconds(3))
            try await window.driver.wait(name: "Saved as PDF", role: "label")

            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "saved", "\(run.standardOutput)")
            let location = try #require(result?["location"] as? String, "\(run.standardOutput)")
            #expect(location.hasSuffix(".pdf") && FileManager.default.fileExists(atPath: location), "\(location)")
            let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: location)).read(upToCount: 5)
            #expect(head == Data("%PDF-".utf8), "a PDF: \(location)")
        }
    }
}
