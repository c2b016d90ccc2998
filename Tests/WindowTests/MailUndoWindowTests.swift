// Undo for mail in the window (SPEC §14), against a loopback aiosmtpd: a sent mail first waits
// in the outbox on a page that says where it goes, with Undo; Undo takes it out unsent and
// brings the form back filled, and a mail left alone goes once the seconds pass.
import Foundation
import LocalTestSupport
import Testing

@Suite("Undo for mail in the window", .serialized)
struct MailUndoWindowTests {
    /// The home's configuration: the loopback server, and `undo-seconds` when given.
    private func configure(_ desk: WindowDesk, port: Int, undoSeconds: Int) throws {
        try desk.configure(
            "[mail]\nsmtp=smtp://127.0.0.1:\(port)\nstarttls=off\nfrom=Ana Lima <ana@example.org>\nundo-seconds=\(undoSeconds)\n")
    }

    /// The files in the outbox's `new/` and `sending/`.
    private func outbox(_ desk: WindowDesk) -> [String] {
        let folder = desk.home.dataHome.appendingPathComponent("sharesheet/Outbox")
        return ["new", "sending"].flatMap { sub in
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? []
        }
    }

    /// Every visible node of the window as AT-SPI shows it: name, role and states.
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    @Test("Undo while the mail waits: nothing reaches the server, the outbox is empty, the form is back with To and Subject")
    func undoBringsTheFormBack() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            // Long enough for the driver to look, take the screenshot and press a key.
            try configure(desk, port: peer.port, undoSeconds: 20)
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "bo@example.com", notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.fill(name: "Subject", text: "Minutes", role: "text")
            try await window.driver.click(name: "Send", role: "push button")

            try await window.driver.wait(name: "Undo", role: "push button")
            let shown = try await nodes(of: window)
            let labels = shown.filter { $0["role"] as? String == "label" }.compactMap { $0["name"] as? String }
            #expect(labels.contains { $0.hasPrefix("Sending to bo@example.com in ") && $0.hasSuffix(" s") }, "\(labels)")
            #expect(!labels.contains { $0.contains("undo-seconds") || $0.contains("[mail]") }, "plain words: \(labels)")
            #expect(outbox(desk).count == 1, "the message waits in the outbox")
            try await desk.saveScreenshot("mail-undo.png", of: window)
            // As a person would: Undo has the focus, and Enter presses it.
            let undo = shown.first { $0["name"] as? String == "Undo" && $0["role"] as? String == "push button" }
            #expect((undo?["states"] as? [String])?.contains("focused") == true, "\(String(describing: undo))")
            try await window.driver.key("Return")

            try await window.driver.wait(name: "Send", role: "push button")
            #expect(try await window.driver.read(name: "To", role: "text") == "bo@example.com")
            #expect(try await window.driver.read(name: "Subject", role: "text") == "Minutes")
            try await window.driver.wait(name: "notes.txt", role: "label")
            #expect(peer.received.isEmpty, "Undo: nothing was sent")
            #expect(outbox(desk).isEmpty, "Undo took the message out of the outbox: \(outbox(desk))")

            // Corrected and sent again, at once this time.
            try await window.driver.fill(name: "Subject", text: "Minutes, corrected", role: "text")
            try await window.driver.click(name: "Send", role: "push button")
            try await window.driver.click(name: "Send Now", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(peer.received.count == 1)
            let parsed = try PythonEmail.parse(try #require(peer.received.first))
            #expect(parsed.subject == "Minutes, corrected")
            #expect(outbox(desk).isEmpty)
        }
    }

    @Test("a mail left alone on the Undo page goes once the seconds pass: one message at the server, the outbox empty")
    func sentAfterTheDelay() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try configure(desk, port: peer.port, undoSeconds: 4)
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "bo@example.com", notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.fill(name: "Subject", text: "Minutes", role: "text")
            try await window.driver.click(name: "Send", role: "push button")
            try await window.driver.wait(name: "Undo", role: "push button")
            #expect(peer.received.isEmpty, "held back first")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(peer.received.count == 1)
            #expect(try PythonEmail.parse(try #require(peer.received.first)).subject == "Minutes")
            #expect(outbox(desk).isEmpty, "\(outbox(desk))")
        }
    }

    @Test("closing the window while the mail waits sends it at once, as the page says: never lost, never left behind")
    func closingSendsNow() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try configure(desk, port: peer.port, undoSeconds: 120)
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "bo@example.com", notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.click(name: "Send", role: "push button")
            try await window.driver.wait(name: "Undo", role: "push button")
            try await window.driver.key("Escape")
            // Well before the 120 s: closing did not wait them out.
            let run = try await window.finish(timeout: 45)
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(peer.received.count == 1)
            #expect(outbox(desk).isEmpty, "\(outbox(desk))")
        }
    }
}
