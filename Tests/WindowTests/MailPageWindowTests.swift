// Mail's page in the window (SPEC §7, "Mail: From, To with contact completion, attachments and
// sizes"), against a loopback aiosmtpd and a vCard folder in the test's home: typing part of a
// contact's name in To lists them, the keys a person uses pick one, and the mail goes to their
// address; the From the receiver will see is said, with a note when it was guessed.
import Foundation
import LocalTestSupport
import Testing

@Suite("Mail's page in the window", .serialized)
struct MailPageWindowTests {
    /// The contacts written, the sheet open on the notes, Mail's form shown and "ana" typed in
    /// To, whose list shows Ana Lima.
    private func mailFormListingAna(_ desk: WindowDesk) async throws -> RunningWindow {
        try writeContacts(desk)
        let (notes, _) = try desk.notesAndPhoto()
        let window = try desk.startShare([notes.path])
        try await window.driver.click(name: "Mail", role: "push button")
        try await window.driver.wait(name: "Subject", role: "text")
        try await window.driver.type("ana")
        try await window.driver.wait(name: "Ana Lima, ana@example.com", role: "push button")
        return window
    }

    /// Two contacts with addresses, one of them with a photo, in the default vCard folder.
    private func writeContacts(_ desk: WindowDesk) throws {
        try desk.writeContacts(["bo-berg", "ana-lima"])
    }

    /// Every visible node of the window as AT-SPI shows it: name, role and states.
    private func nodes(of window: RunningWindow) async throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
    }

    @Test("typing part of a contact's name in To lists only them; Down and Enter fill To with their address, Ctrl+Enter sends to the loopback server")
    func toCompletesFromContacts() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try desk.configure(
                "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=Ana Lima <ana@example.org>\nundo-seconds=0\n")
            try writeContacts(desk)
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path, photo.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.wait(name: "Subject", role: "text")

            // The page: From as set up, no note; each attachment with its size.
            try await window.driver.wait(name: "Ana Lima <ana@example.org>", role: "label")
            try await window.driver.wait(name: "notes.txt", role: "label")
            try await window.driver.wait(name: "26 bytes", role: "label")
            try await window.driver.wait(name: "photo.png", role: "label")
            try await window.driver.wait(name: "2 Attachments", role: "label")
            let labels = try await nodes(of: window).compactMap { $0["name"] as? String }
            #expect(!labels.contains { $0.hasPrefix("Guessed") }, "a From that is set up is not called a guess: \(labels)")

            // The focus starts in To, the field that needs a value: a person types there.
            try await window.driver.type("ber")
            try await window.driver.wait(name: "Bo Berg, bo@example.com", role: "push button")
            try await window.driver.wait(name: "Photo of Bo Berg")
            let offered = try await nodes(of: window).compactMap { $0["name"] as? String }
            #expect(!offered.contains("Ana Lima, ana@example.com"), "only the contacts that match: \(offered)")
            try await desk.saveScreenshot("mail-page-completion.png", of: window)
            try await window.driver.key("Down")
            try await window.driver.key("Return")
            try await window.driver.waitGone(name: "Bo Berg, bo@example.com", role: "push button")
            #expect(try await window.driver.read(name: "To", role: "text") == "Bo Berg <bo@example.com>")

            try await window.driver.key("Tab")
            try await window.driver.type("Minutes")
            #expect(try await window.driver.read(name: "Subject", role: "text") == "Minutes")
            try await desk.saveScreenshot("mail-page.png", of: window)
            try await window.driver.key("Control_L+Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")

            let message = try #require(peer.received.first, "the SMTP peer received nothing")
            #expect(try peer.envelope(of: message).recipients == ["bo@example.com"])
            let parsed = try PythonEmail.parse(message)
            #expect(parsed.subject == "Minutes")
            #expect(parsed.to.contains { $0.contains("Bo Berg") && $0.contains("bo@example.com") }, "\(parsed.to)")
            #expect(parsed.parts.contains { $0.filename == "notes.txt" })
        }
    }

    @Test("Enter in To while the typed word is no address takes the first contact that matches")
    func enterTakesTheFirstMatch() async throws {
        try await WindowDesk.with { desk in
            let window = try await mailFormListingAna(desk)
            try await window.driver.key("Return")
            try await window.driver.waitGone(name: "Ana Lima, ana@example.com", role: "push button")
            #expect(try await window.driver.read(name: "To", role: "text") == "Ana Lima <ana@example.com>")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("Escape while contacts are listed closes the list and keeps the form; a second Escape leaves it")
    func escapeClosesTheListFirst() async throws {
        try await WindowDesk.with { desk in
            let window = try await mailFormListingAna(desk)
            try await window.driver.key("Escape")
            try await window.driver.waitGone(name: "Ana Lima, ana@example.com", role: "push button")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "ana", "what was typed stays")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("Message's To completes a contact's number the same way, and lists the attachment with its size")
    func messageCompletesNumbers() async throws {
        try await WindowDesk.with { desk in
            let folder = desk.home.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy-park\r\nFN:Cy Park\r\nN:Park;Cy;;;\r\nTEL:+46 70 123 45 67\r\nEND:VCARD\r\n"
            try Data(card.utf8).write(to: folder.appendingPathComponent("cy-park.vcf"))
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path])
            try await window.driver.click(name: "Message", role: "push button")
            try await window.driver.wait(name: "Body", role: "text")
            try await window.driver.wait(name: "26 bytes", role: "label")
            try await window.driver.type("park")
            try await window.driver.wait(name: "Cy Park, +46 70 123 45 67", role: "push button")
            try await desk.saveScreenshot("message-page-completion.png", of: window)
            try await window.driver.key("Return")
            try await window.driver.waitGone(name: "Cy Park, +46 70 123 45 67", role: "push button")
            #expect(try await window.driver.read(name: "To", role: "text") == "+46 70 123 45 67")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("with no From address set up, the page shows the guessed sender and says it was guessed, in words without settings syntax")
    func guessedSenderIsSaid() async throws {
        try await WindowDesk.with { desk in
            try desk.configure("[mail]\nsmtp=smtp://127.0.0.1:9\nstarttls=off\n")
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.wait(name: "From", role: "label")
            let shown = try await nodes(of: window)
            let names = shown.compactMap { $0["name"] as? String }
            #expect(names.contains { $0.hasPrefix("Guessed from your account") }, "\(names)")
            #expect(names.contains { $0.contains("@") && !$0.contains(" ") }, "the guessed address: \(names)")
            for name in names {
                #expect(!name.contains("--") && !name.contains("[mail]") && !name.contains("from="), "plain words: \(name)")
            }
            try await desk.saveScreenshot("mail-page-guessed-from.png", of: window)
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }
}
