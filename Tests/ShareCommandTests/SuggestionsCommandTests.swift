// Suggestions end to end (SPEC §12): mails sent through a real SMTP server on loopback make the
// history, then `share --list --json`, `share suggestions --explain`, `share --suggestion` and
// the terminal sheet in tmux show and pick the people it ranks first.
import Foundation
import LocalTestSupport
import Testing

@Suite("Suggestions from the shares made, through the built share command", .serialized)
final class SuggestionsCommandTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }
    let peer: SMTPPeer
    let terminal = TmuxTerminal()

    init() throws {
        fixture = try CommandFolder()
        peer = try SMTPPeer(in: fixture.url)
        try configure("")
    }

    deinit {
        terminal.stop()
        peer.stop()
    }

    /// The configuration: the loopback server, and `extra` after it.
    func configure(_ extra: String) throws {
        let config = folder.appendingPathComponent("home/config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=me@example.org\n\(extra)".utf8)
            .write(to: config.appendingPathComponent("config"))
    }

    func share(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder, sourceLocation: sourceLocation)
    }

    /// Three mails to ana, one to bo, each sent through the server.
    func mailAnaThriceAndBoOnce() async throws {
        for recipient in ["ana@example.com", "ana@example.com", "bo@example.com", "ana@example.com"] {
            let run = try await share(["--activity", "mail", "--to", recipient, "--subject", "Q3", "notes.txt"])
            #expect(run.status == 0, "\(run.standardError)")
        }
        #expect(peer.received.count == 4)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("share --list --json: the suggestions start with Mail to ana, then bo, every key present")
    func listShowsThemFirst() async throws {
        let before = try await share(["--list", "--json", "notes.txt"])
        #expect(try json(before.standardOutput)["suggestions"] as? [Any] != nil, "the key is there with no history too")
        #expect((try json(before.standardOutput)["suggestions"] as? [Any])?.isEmpty == true)
        try await mailAnaThriceAndBoOnce()
        let run = try await share(["--list", "--json", "notes.txt"])
        #expect(run.status == 0, "\(run.standardError)")
        let suggestions = try #require(try json(run.standardOutput)["suggestions"] as? [[String: Any]])
        #expect(suggestions.compactMap { $0["id"] as? String } == ["mail:ana@example.com", "mail:bo@example.com"])
        let ana = try #require(suggestions.first)
        #expect(Set(ana.keys) == ["id", "activity", "activityType", "title", "subtitle", "iconName", "photoPath", "presets"])
        #expect(ana["activity"] as? String == "mail")
        #expect(ana["activityType"] as? String == "com.apple.UIKit.activity.Mail")
        #expect(ana["presets"] as? [String: String] == ["to": "ana@example.com"])
        #expect(ana["photoPath"] is NSNull)
        // The plain listing shows them too, before the rows, by the id --suggestion takes.
        let plain = try await share(["--list", "notes.txt"])
        let lines = plain.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Suggestions:"), "\(plain.standardOutput)")
        #expect(lines[heading + 1].hasPrefix("  mail:ana@example.com  Mail to ana@example.com"), "\(plain.standardOutput)")
        #expect(lines[heading + 2].hasPrefix("  mail:bo@example.com   Mail to bo@example.com"), "\(plain.standardOutput)")
        #expect(lines[heading + 3] == "Share row:", "\(plain.standardOutput)")
    }

    @Test("share suggestions --explain prints each candidate's uses and score: ana 3 and 3.000, bo 1 and 1.000")
    func explainPrintsTheScores() async throws {
        try await mailAnaThriceAndBoOnce()
        let run = try await share(["suggestions", "--explain", "notes.txt"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let ana = try #require(lines.first { $0.contains("mail:ana@example.com") }, "\(run.standardOutput)")
        let bo = try #require(lines.first { $0.contains("mail:bo@example.com") }, "\(run.standardOutput)")
        // #, id, from, uses, date, time, score, offered
        #expect(ana == ["1", "mail:ana@example.com", "history", "3", ana[4], ana[5], "3.000", "yes"], "\(run.standardOutput)")
        #expect(bo == ["2", "mail:bo@example.com", "history", "1", bo[4], bo[5], "1.000", "yes"], "\(run.standardOutput)")
        let mail = try #require(lines.first { $0.first == "mail" }, "the activities' scores:\n\(run.standardOutput)")
        #expect(mail.first == "mail" && mail[1] == "4" && mail.last == "4.000", "\(run.standardOutput)")
        // The same as JSON, the score unrounded.
        let explained = try await share(["suggestions", "--explain", "--json", "notes.txt"])
        let object = try json(explained.standardOutput)
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(candidates.compactMap { $0["id"] as? String } == ["mail:ana@example.com", "mail:bo@example.com"])
        let score = try #require(candidates.first?["score"] as? Double)
        #expect(abs(score - 3) < 0.001)
        #expect(candidates.first?["uses"] as? Int == 3)
        #expect(candidates.first?["suggested"] as? Int == 1)
        #expect(object["kinds"] as? [String] == ["file"])
        // Without --explain, the suggestions, numbered as the sheet numbers them.
        let listed = try await share(["suggestions", "notes.txt"])
        #expect(listed.standardOutput.hasPrefix("1  mail:ana@example.com  Mail to ana@example.com\n2  mail:bo@example.com"), "\(listed.standardOutput)")
    }

    @Test("--explain lists the contacts that reach the first 8 after the history, and says how many more are left out")
    func explainCountsContactsLeftOut() async throws {
        try await mailAnaThriceAndBoOnce()
        let contacts = folder.appendingPathComponent("home/data/contacts/default")
        try FileManager.default.createDirectory(at: contacts, withIntermediateDirectories: true)
        for number in 0..<10 {
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:p\(number)\r\nFN:Person \(number)\r\nEMAIL:p\(number)@example.com\r\nEND:VCARD\r\n"
            try Data(card.utf8).write(to: contacts.appendingPathComponent("p\(number).vcf"))
        }
        let run = try await share(["suggestions", "--explain", "notes.txt"])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.standardOutput.split(separator: "\n").filter { $0.contains("@example.com") }
        #expect(rows.count == 8, "\(run.standardOutput)")
        #expect(rows.filter { $0.contains(" contact ") }.count == 6, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("and 4 more contacts left out"), "\(run.standardOutput)")
        let listed = try await share(["--list", "--json", "notes.txt"])
        let suggestions = try #require(try json(listed.standardOutput)["suggestions"] as? [[String: Any]])
        #expect(suggestions.count == 8)
        #expect(suggestions.prefix(2).compactMap { $0["id"] as? String } == ["mail:ana@example.com", "mail:bo@example.com"])
        #expect(suggestions[2]["title"] as? String == "Person 0")
    }

    @Test("share suggestions without items is a usage error")
    func suggestionsNeedItems() async throws {
        let run = try await share(["suggestions"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("give the items"), "\(run.standardError)")
    }

    @Test("share --suggestion mail:ana@example.com sends to ana without the sheet; an id not suggested is a usage error")
    func suggestionPicksOne() async throws {
        try await mailAnaThriceAndBoOnce()
        let run = try await share(["--suggestion", "mail:ana@example.com", "--subject", "again", "notes.txt"])
        #expect(run.status == 0, "\(run.standardError)")
        let sent = try #require(peer.received.last)
        #expect(try peer.envelope(of: sent).recipients == ["ana@example.com"])
        #expect(peer.received.count == 5)
        let unknown = try await share(["--suggestion", "mail:cy@example.com", "notes.txt"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("mail:cy@example.com"), "\(unknown.standardError)")
        #expect(unknown.standardError.contains("share suggestions notes.txt"), "\(unknown.standardError)")
        #expect(peer.received.count == 5, "a message went for an unknown suggestion")
        // Text is its own kind: nobody was sent text, and the hint names the same items.
        let text = try await share(["--suggestion", "mail:ana@example.com", "--text", "see you at 6"])
        #expect(text.status == 64)
        #expect(text.standardError.contains("share suggestions --text 'see you at 6'"), "\(text.standardError)")
        let forText = try await share(["suggestions", "--text", "see you at 6"])
        #expect(forText.status == 0 && forText.standardOutput == "No suggestions for these items.\n", "\(forText)")
    }

    @Test("[sheet] suggestions=false: no suggestions listed, and --suggestion finds none")
    func turnedOff() async throws {
        try await mailAnaThriceAndBoOnce()
        try configure("[sheet]\nsuggestions=false\n")
        let run = try await share(["--list", "--json", "notes.txt"])
        #expect((try json(run.standardOutput)["suggestions"] as? [Any])?.isEmpty == true, "\(run.standardOutput)")
        let picked = try await share(["--suggestion", "mail:ana@example.com", "notes.txt"])
        #expect(picked.status == 64)
        let explained = try await share(["suggestions", "--explain", "notes.txt"])
        #expect(explained.standardOutput.hasPrefix("Suggestions are off ([sheet] suggestions=false)"), "\(explained.standardOutput)")
    }

    @Test("a row is ordered by use: Copy used comes before Print in the action row, unless [sheet] order=fixed")
    func rowsByUse() async throws {
        func actionRow() async throws -> [String] {
            let run = try await share(["--list", "--json", "notes.txt"])
            return try #require(try json(run.standardOutput)["action"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        }
        let builtIn = try await actionRow()
        let print = try #require(builtIn.firstIndex(of: "print"))
        let copy = try #require(builtIn.firstIndex(of: "copy"))
        #expect(print < copy, "\(builtIn)")
        let copied = try await share(["--activity", "copy", "notes.txt"])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(try await actionRow().first == "copy")
        let explained = try await share(["suggestions", "--explain", "notes.txt"])
        #expect(explained.standardOutput.split(separator: "\n").contains { line in
            line.split(separator: " ").first == "copy" && line.hasSuffix("1.000")
        }, "\(explained.standardOutput)")
        try configure("[sheet]\norder=fixed\n")
        #expect(try await actionRow() == builtIn)
    }

    @Test("the terminal sheet shows the suggestions first; Enter on the first fills To with ana and sends there")
    func terminalSheetPicksTheFirst() async throws {
        try await mailAnaThriceAndBoOnce()
        var environment = ShareBinary.environment(in: folder)
        environment["TERM"] = "xterm"
        try terminal.start(try TmuxTerminal.shareCommand("notes.txt", in: folder, environment: environment))
        guard try await terminal.waitFor("Filter:") else { return }
        guard try await terminal.waitFor("1 Mail to ana@example.com") else { return }
        let sheet = try terminal.screen()
        #expect(sheet.contains("2 Mail to bo@example.com"), "\(sheet)")
        #expect(sheet.contains("3 Mail (mail)"), "the rows are numbered on after the suggestions:\n\(sheet)")
        try terminal.type("")
        guard try await terminal.waitFor("To: ana@example.com") else { return }
        guard try await terminal.waitFor("More fields (Cc, Bcc)? [y/N]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("Subject") else { return }
        try terminal.type("From the sheet")
        guard try await terminal.waitFor("Body") else { return }
        try terminal.type(".")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("EXIT=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        let sent = try #require(peer.received.last)
        #expect(peer.received.count == 5, "\(shown)")
        #expect(try peer.envelope(of: sent).recipients == ["ana@example.com"])
    }
}
