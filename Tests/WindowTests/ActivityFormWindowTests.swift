// Activities with a form, through the window, against the real peers a person would meet: a
// loopback SMTP server for Mail, and a LocalSend receiver in a network namespace of its own for
// AirDrop.
import Foundation
import LocalTestSupport
import Testing

@Suite("Activity forms in the window", .serialized)
struct ActivityFormWindowTests {
    @Test("Mail with --to shows To filled; Subject, Send and Send Now on the Undo page deliver to a loopback aiosmtpd, which parses the message")
    func mailFromTheWindow() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try desk.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=Ana Lima <ana@example.org>\n")
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--to", "bo@example.com", notes.path, photo.path])
            try await window.driver.click(name: "Mail", role: "push button")
            #expect(try await window.driver.read(name: "To", role: "text") == "bo@example.com")
            try await window.driver.fill(name: "Subject", text: "Minutes from the window", role: "text")
            try await desk.saveScreenshot("mail-form.png", of: window)
            try await window.driver.click(name: "Send", role: "push button")
            // The window holds a mail back with Undo by default (`[mail] undo-seconds` unset).
            try await window.driver.click(name: "Send Now", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")

            let message = try #require(peer.received.first, "the SMTP peer received nothing")
            #expect(try peer.envelope(of: message).recipients == ["bo@example.com"])
            let parsed = try PythonEmail.parse(message)
            #expect(parsed.subject == "Minutes from the window")
            #expect(parsed.to.contains { $0.contains("bo@example.com") })
            #expect(parsed.defects.isEmpty, "defects: \(parsed.defects)")
            #expect(parsed.parts.contains { $0.filename == "photo.png" && $0.contentType == "image/png" })
            #expect(parsed.parts.contains { $0.filename == "notes.txt" })
        }
    }

    @Test("Back on Mail's form returns to the sheet, where another activity (Save to Photos) can be picked and runs")
    func backToTheSheet() async throws {
        try await WindowDesk.with { desk in
            let (notes, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path, photo.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.wait(name: "Subject", role: "text")
            try await window.driver.click(name: "Back", role: "push button")
            try await window.driver.click(name: "Save to Photos", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let pictures = desk.home.home.appendingPathComponent("Pictures")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: pictures.path))?.contains("photo.png") == true)
        }
    }

    @Test("a wrong address is said under its field and Send stays disabled until it is right")
    func validationUnderTheField() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.fill(name: "To", text: "not-an-address", role: "text")
            try await window.driver.wait(name: "not an e-mail address: not-an-address", role: "label")
            #expect(try await window.isDisabled("Send"))
            try await window.driver.fill(name: "To", text: "bo@example.com", role: "text")
            try await window.driver.waitGone(name: "not an e-mail address: not-an-address", role: "label")
            #expect(try await !window.isDisabled("Send"))
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("AirDrop between two network namespaces: the LocalSend peer appears in the device list, and picking it sends the file")
    func airDropFromTheWindow() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true),
                alias: "Desk Laptop")
            defer { receiver.stop() }
            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 300_000)
            let started = try Share.start(
                [file.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.click(name: "AirDrop", role: "push button")
            // AirDrop's page: a device is a row that sends when picked (no separate Send).
            try await window.driver.click(name: "Desk Laptop", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let received = receiver.downloads.appendingPathComponent("holiday.jpg")
            #expect(filesAreIdentical(file, received), "received: \(receiver.receivedFiles())")
        }
    }
}
