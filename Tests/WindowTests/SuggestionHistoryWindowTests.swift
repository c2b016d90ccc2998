// Suggestions from the person's own history in `share`'s window, end to end (SPEC §12, issue
// #26): mails sent by the command to a loopback aiosmtpd are recorded, the next sheet's first
// avatar is the person mailed most, and picking it by keys sends to her with nothing to type.
import Foundation
import LocalTestSupport
import Testing

@Suite("Suggestions from the history in the window", .serialized)
struct SuggestionHistoryWindowTests {
    /// Mail through `peer`, sent at once (no Undo wait), so the test reads what the server got.
    private func configure(_ desk: WindowDesk, peer: SMTPPeer) throws {
        try desk.configure(
            "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=Cy Ohara <cy@example.org>\nundo-seconds=0\n")
    }

    /// Three mails to ana@example.com and one to bo@example.com, by the command (no display),
    /// each recorded in the home's history as it finishes.
    private func mailAnaThriceAndBoOnce(_ desk: WindowDesk, file: URL, peer: SMTPPeer) async throws {
        for (index, to) in ["ana@example.com", "bo@example.com", "ana@example.com", "ana@example.com"].enumerated() {
            let run = try await Share.run(["--activity", "mail", "--to", to, "--subject", "Note \(index + 1)", file.path], home: desk.home)
            #expect(run.status == 0, "share --activity mail --to \(to): \(run.standardError)")
        }
        #expect(peer.received.count == 4)
    }

    /// The push buttons of the window, in the order AT-SPI lists them.
    private func buttons(of window: RunningWindow) async throws -> [[String: Any]] {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        return nodes.filter { $0["role"] as? String == "push button" }
    }

    @Test("after three mails to ana and one to bo, the first avatar is Mail to ana@example.com; Enter and Ctrl+Enter send to ana with no field to fill")
    func firstSuggestionSendsToAna() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try configure(desk, peer: peer)
            let (notes, _) = try desk.notesAndPhoto()
            try await mailAnaThriceAndBoOnce(desk, file: notes, peer: peer)

            let window = try desk.startShare(["--json", notes.path])
            try await window.driver.wait(name: "Mail to ana@example.com", role: "push button")
            try await window.driver.wait(name: "Mail to bo@example.com", role: "push button")
            let shown = try await buttons(of: window)
            let names = shown.compactMap { $0["name"] as? String }
            let ana = try #require(names.firstIndex(of: "Mail to ana@example.com"))
            #expect(names.firstIndex(of: "Mail to bo@example.com").map { ana < $0 } == true, "ana first: \(names)")
            #expect(names.firstIndex(of: "Mail").map { ana < $0 } == true, "above the share row: \(names)")
            #expect((shown[ana]["states"] as? [String])?.contains("focused") == true, "the first avatar has the focus: \(shown[ana])")

            // Enter picks her: Mail with To filled, the focus in Subject. A line in the Body
            // (Tab), and Ctrl+Enter sends: nothing else to fill.
            try await window.driver.key("Return")
            try await window.driver.wait(name: "Subject", role: "text")
            #expect(try await window.driver.read(name: "To", role: "text") == "ana@example.com")
            try await window.driver.key("Tab")
            try await window.driver.type("See you at six")
            try await window.driver.key("Control_L+Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["activity"] as? String == "mail", "result: \(run.standardOutput)")
            #expect(result?["disposition"] as? String == "sent", "result: \(run.standardOutput)")

            let received = peer.received
            #expect(received.count == 5, "\(received)")
            let last = try #require(received.last)
            #expect(try peer.envelope(of: last).recipients == ["ana@example.com"])
            let parsed = try PythonEmail.parse(last)
            #expect(parsed.to.contains { $0.contains("ana@example.com") }, "\(parsed.to)")
            #expect(parsed.parts.contains { $0.filename == "notes.txt" })
            #expect(parsed.parts.contains { $0.text?.contains("See you at six") == true }, "\(parsed.parts)")
        }
    }

    @Test("a contact in the vCard folder gives the avatar her name: Mail to Ana Lima, with her initials")
    func contactNamesTheAvatar() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try configure(desk, peer: peer)
            try desk.writeContacts(["ana-lima"])
            let (notes, _) = try desk.notesAndPhoto()
            try await mailAnaThriceAndBoOnce(desk, file: notes, peer: peer)

            let window = try desk.startShare([notes.path])
            try await window.driver.wait(name: "Mail to Ana Lima", role: "push button")
            try await window.driver.wait(name: "AL", role: "label")
            let names = try await buttons(of: window).compactMap { $0["name"] as? String }
            #expect(!names.contains("Mail to ana@example.com"), "one avatar for her: \(names)")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("with no history and no contacts there is no row: no avatar, and the share row's first activity has the focus")
    func noHistoryNoRow() async throws {
        try await WindowDesk.with { desk in
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare([notes.path])
            try await window.driver.wait(name: "Mail", role: "push button")
            let shown = try await buttons(of: window)
            let names = shown.compactMap { $0["name"] as? String }
            #expect(!names.contains { ["Mail to ", "Message to ", "AirDrop to ", "Open In "].contains(where: $0.hasPrefix) }, "\(names)")
            let focused = shown.first { ($0["states"] as? [String])?.contains("focused") == true }
            #expect(focused?["name"] as? String == "Message", "\(String(describing: focused))")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }

    @Test("after one AirDrop to a LocalSend device, its avatar sends the next file to it at once: no device to choose")
    func deviceSuggestionSendsAtOnce() async throws {
        try await WindowDesk.with { desk in
            let pair = try NetworkPair()
            defer { pair.remove() }
            let receiver = try LocalSendPeer(
                namespace: pair.theirs, home: desk.home.root.appendingPathComponent("peer", isDirectory: true),
                alias: "Desk Laptop")
            defer { receiver.stop() }
            let first = desk.home.root.appendingPathComponent("first.jpg")
            try writeRandomFile(first, size: 20_000)
            let sent = try await Share.finish(
                try Share.start(["--activity", "airdrop", "--to", "Desk Laptop", first.path], home: desk.home, namespace: pair.ours))
            #expect(sent.status == 0, "share --activity airdrop: \(sent.standardError)")

            let file = desk.home.root.appendingPathComponent("holiday.jpg")
            try writeRandomFile(file, size: 300_000, seed: 2)
            let started = try Share.start([file.path], home: desk.home, extra: desk.session.environment, namespace: pair.ours)
            let window = RunningWindow(started: started, driver: AccessibilityDriver(session: desk.session, pid: started.pid))
            try await window.driver.wait(name: "AirDrop to Desk Laptop", role: "push button")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let received = receiver.downloads.appendingPathComponent("holiday.jpg")
            #expect(filesAreIdentical(file, received), "received: \(receiver.receivedFiles())")
        }
    }
}
