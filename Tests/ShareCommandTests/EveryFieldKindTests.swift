import Foundation
import LocalTestSupport
import Testing

/// Every field of every built-in interface, asked by the terminal sheet in a real terminal
/// (tmux, libedit editing the lines), once answered and once left empty (#23). The sheet used to
/// crash in libedit at the first prompt holding a character outside ASCII (Print's
/// "Copies (1–999)"): the process never set a character locale, and libedit cannot convert such
/// a prompt in the "C" one. Each run must end with the exit status the outcome calls for and the
/// terminal as it was, never with a signal.
@Suite("every field kind in the terminal sheet", .serialized)
final class EveryFieldKindTests {
    let folder: URL
    let terminal = TmuxTerminal()

    init() throws {
        folder = try TemporaryFolder.make("share-field-kinds")
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.copyItem(at: Sample.url("sunset.png"), to: folder.appendingPathComponent("sunset.png"))
    }

    deinit {
        terminal.stop()
        TemporaryFolder(existing: folder).remove()
    }

    private func startShare(_ arguments: String, extra: [String: String] = [:]) throws {
        var environment = ShareBinary.environment(in: folder).merging(extra) { _, given in given }
        environment["TERM"] = "xterm"
        try terminal.start(try TmuxTerminal.shareCommand(arguments, in: folder, environment: environment))
    }

    /// Picks `activity` by typing its name in the arrow-key picker.
    private func pick(_ activity: String) async throws -> Bool {
        guard try await terminal.waitFor("Filter:") else { return false }
        try terminal.type(activity)
        return true
    }

    /// Waits for the command to end; its exit status, with the screen for messages.
    private func exitStatus(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (Int?, String) {
        guard try await terminal.waitFor("TTY=", sourceLocation: sourceLocation) else { return (nil, try terminal.screen()) }
        let shown = try terminal.screen()
        let status = shown.components(separatedBy: "EXIT=").last.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(shown.contains("TTY=restored"), "the terminal was left changed:\n\(shown)", sourceLocation: sourceLocation)
        #expect(!shown.contains("crashed") && !shown.contains("Segmentation"), "\(shown)", sourceLocation: sourceLocation)
        return (status, shown)
    }

    private func outboxMessage() throws -> String? {
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        guard let name = try? FileManager.default.contentsOfDirectory(atPath: outbox.path).first else { return nil }
        return try String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8)
    }

    // MARK: Mail: e-mail addresses, text, multi-line text, behind "More fields"

    @Test(arguments: [true, false]) func mail(answered: Bool) async throws {
        try startShare("notes.txt")
        guard try await pick("mail") else { return }
        guard try await terminal.waitFor("To (e-mail addresses") else { return }
        if !answered {
            // Required: left empty, it is asked again.
            try terminal.type("")
            guard try await terminal.waitFor("To is required") else { return }
        }
        try terminal.type("ana@example.com")
        guard try await terminal.waitFor("More fields (Cc, Bcc)? [y/N]") else { return }
        try terminal.type("y")
        guard try await terminal.waitFor("Cc (e-mail addresses") else { return }
        try terminal.type(answered ? "cc@example.com" : "")
        guard try await terminal.waitFor("Bcc (e-mail addresses") else { return }
        try terminal.type(answered ? "bcc@example.com" : "")
        guard try await terminal.waitFor("Subject") else { return }
        try terminal.type(answered ? "Numbers – Q3, café" : "")
        guard try await terminal.waitFor("Body") else { return }
        if answered { try terminal.type("Hello — see the numbers.") }
        try terminal.type(".")
        try await confirmIfAsked()
        let (status, shown) = try await exitStatus()
        // No mail server is set in this home: the message waits in the outbox.
        #expect(status == 0 || status == 75, "\(shown)")
        let message = try #require(try outboxMessage(), "\(shown)")
        #expect(message.contains("To: ana@example.com"))
        #expect(message.contains("Cc: cc@example.com") == answered, "\(message)")
    }

    // MARK: Message: phone numbers, multi-line text

    @Test(arguments: [true, false]) func message(answered: Bool) async throws {
        try startShare("notes.txt")
        guard try await pick("message") else { return }
        guard try await terminal.waitFor("To (phone numbers") else { return }
        if !answered {
            try terminal.type("")
            guard try await terminal.waitFor("To is required") else { return }
        }
        try terminal.type("+15551234567")
        guard try await terminal.waitFor("Body") else { return }
        if answered { try terminal.type("See you at 6 – café?") }
        try terminal.type(".")
        try await confirmIfAsked()
        let (status, shown) = try await exitStatus()
        // No phone is paired: the message is kept, and the command says where.
        #expect([0, 69, 75].contains(status), "\(shown)")
    }

    /// Like Mail, Message says what goes where and asks before it goes; n keeps nothing.
    @Test func messageAsksBeforeItGoes() async throws {
        try startShare("notes.txt")
        guard try await pick("message") else { return }
        guard try await terminal.waitFor("To (phone numbers") else { return }
        try terminal.type("+15551234567")
        guard try await terminal.waitFor("Body") else { return }
        try terminal.type("See you at 6")
        try terminal.type(".")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        let summary = try terminal.screen()
        #expect(summary.contains("To: +15551234567") && summary.contains("Text: See you at 6"), "\(summary)")
        #expect(summary.contains("Attachments: notes.txt"), "\(summary)")
        try terminal.type("n")
        let (status, shown) = try await exitStatus()
        #expect(status == 130, "\(shown)")
        let queued = folder.appendingPathComponent("home/data/sharesheet/Messages")
        let entries = (try? FileManager.default.subpathsOfDirectory(atPath: queued.path))?.filter { $0.hasSuffix(".json") } ?? []
        #expect(entries.isEmpty, "\(entries)")
    }

    // MARK: Print: text, a whole number, a choice

    /// Print to an IPP Everywhere printer behind a private cupsd (Print asks its questions only
    /// when CUPS lists a printer).
    @Test(arguments: [true, false]) func print(answered: Bool) async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        try startShare("notes.txt", extra: ["CUPS_SERVER": peers.server])
        guard try await pick("print") else { return }
        // With a printer every field is asked, none kept behind "More fields".
        // The printers CUPS lists, and Save as PDF; Enter keeps the default printer.
        guard try await terminal.waitFor("Printer (number or name) [Office]:") else { return }
        // Empty: the default printer.
        try terminal.type(answered ? "Office" : "")
        guard try await terminal.waitFor("Copies (1–999) [1]:") else { return }
        if answered {
            // Out of range first: said, and asked again.
            try terminal.type("1000")
            guard try await terminal.waitFor("Copies must be between 1 and 999") else { return }
            try terminal.type("2")
        } else {
            try terminal.type("")
        }
        guard try await terminal.waitFor("Sides (number or name)") else { return }
        try terminal.type(answered ? "2" : "")
        guard try await terminal.waitFor("Paper") else { return }
        try terminal.type(answered ? "letter" : "")
        guard try await terminal.waitFor("Pages") else { return }
        try terminal.type(answered ? "1" : "")
        guard try await terminal.waitFor("Job name") else { return }
        try terminal.type(answered ? "Q3 – notes" : "")
        let (status, shown) = try await exitStatus()
        #expect(status == 0, "\(shown)")
        let jobs = try peers.jobs()
        #expect(jobs.count == 1, "\(jobs)\n\(shown)")
    }

    // MARK: AirDrop: a streaming choice and a secret

    /// AirDrop to a LocalSend receiver that wants PIN 4321, in a network namespace of the
    /// test's own (discovery never reaches a real network).
    @Test(arguments: [true, false]) func airDrop(answered: Bool) async throws {
        let pair = try NetworkPair()
        defer { pair.remove() }
        let peer = try LocalSendPeer(namespace: pair.theirs, home: folder.appendingPathComponent("peer"), pin: "4321")
        defer { peer.stop() }
        let binary = try #require(Share.url)
        let environment = TemporaryHome.environment(home: folder.appendingPathComponent("us"))
            .merging(["TERM": "xterm", "NO_COLOR": "1"]) { $1 }
        let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
        try terminal.start(
            "cd \(ShareBinary.shellQuoted(folder.path)) && before=$(stty -g) && /usr/sbin/ip netns exec \(pair.ours) "
                + "/usr/bin/env -i \(assignments.joined(separator: " ")) \(ShareBinary.shellQuoted(binary.path)) --terminal notes.txt; "
                + "echo \"EXIT=$?\"; if [ \"$(stty -g)\" = \"$before\" ]; then echo TTY=restored; else echo TTY=changed; fi; sleep 60")
        guard try await pick("airdrop") else { return }
        guard try await terminal.waitFor("Peer Laptop") else { return }
        guard try await terminal.waitFor("Device (number or name):") else { return }
        if answered {
            try terminal.type(pair.theirAddress)
            guard try await terminal.waitFor("More fields (PIN)? [y/N]") else { return }
            try terminal.type("y")
            guard try await terminal.waitFor("PIN:") else { return }
            // Typed with echo off, like the PIN the command asks for itself.
            try terminal.type("4321")
            let (status, shown) = try await exitStatus()
            #expect(!shown.contains("4321"), "the PIN was shown:\n\(shown)")
            #expect(status == 0, "\(shown)")
            #expect(peer.receivedFiles() == ["notes.txt"], "\(peer.process.output)\n\(shown)")
        } else {
            // Required: left empty, it is asked again; then the device found, and no PIN.
            try terminal.type("")
            guard try await terminal.waitFor("Device is required") else { return }
            try terminal.type("1")
            guard try await terminal.waitFor("More fields (PIN)? [y/N]") else { return }
            try terminal.type("")
            // The receiver asks for the PIN; left empty, the share gives up.
            guard try await terminal.waitFor("asks for a PIN") else { return }
            try terminal.type("")
            let (status, shown) = try await exitStatus()
            #expect(status != nil && status != 0, "\(shown)")
            #expect(peer.receivedFiles().isEmpty)
        }
    }

    // MARK: Assign to Contact: a required text

    @Test(arguments: [true, false]) func assignToContact(answered: Bool) async throws {
        try startShare("sunset.png")
        guard try await pick("contact") else { return }
        guard try await terminal.waitFor("Contact") else { return }
        if !answered {
            try terminal.type("")
            guard try await terminal.waitFor("Contact is required") else { return }
            try terminal.press("C-d")
            let (status, shown) = try await exitStatus()
            #expect(status == 130, "\(shown)")
            return
        }
        try terminal.type("Ana Lima – café")
        let (status, shown) = try await exitStatus()
        // No card matches in this home's empty folder: a new contact is made, with the photo.
        #expect(status == 0, "\(shown)")
        let cards = folder.appendingPathComponent("home/data/contacts/default")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cards.path)) ?? []
        let card = try names.first.map { try String(contentsOf: cards.appendingPathComponent($0), encoding: .utf8) }
        #expect(card?.contains("FN:Ana Lima – café") == true, "\(card ?? shown)")
    }

    // MARK: Open In: a choice and a toggle

    @Test(arguments: [true, false]) func openIn(answered: Bool) async throws {
        try await RecordingApplications.add("org.example.Reader", name: "Example Reader", mimeType: "text/plain", in: folder)
        try await RecordingApplications.add("org.example.Editor", name: "Example Editor", mimeType: "text/plain", in: folder)
        try startShare("notes.txt")
        guard try await pick("open-in") else { return }
        guard try await terminal.waitFor("Application (number or name)") else { return }
        if !answered {
            try terminal.type("")
            guard try await terminal.waitFor("Application is required") else { return }
        }
        try terminal.type(answered ? "Example Editor" : "1")
        guard try await terminal.waitFor("Always use for this type [y/N]") else { return }
        try terminal.type(answered ? "y" : "")
        let (status, shown) = try await exitStatus()
        #expect(status == 0, "\(shown)")
        let started = try await RecordingApplications.started(in: folder)
        #expect(started.count == 1, "\(shown)")
        let defaults = try? String(
            contentsOf: folder.appendingPathComponent("home/config/mimeapps.list"), encoding: .utf8)
        #expect((defaults?.contains("text/plain=") == true) == answered, "\(defaults ?? "no mimeapps.list")")
    }

    // MARK: Posting: multi-line text with a count

    /// X without an account: the text goes to X's post page, opened by the browser of this
    /// home (a recorder registered for https links).
    @Test(arguments: [true, false]) func posting(answered: Bool) async throws {
        try await RecordingApplications.add(
            "org.example.Browser", name: "Example Browser", mimeType: "x-scheme-handler/https", in: folder, argument: "%u")
        try startShare("--text 'Hello – café'")
        guard try await pick("twitter") else { return }
        guard try await terminal.waitFor("12/280 characters") else { return }
        guard try await terminal.waitFor("Text (end with a line holding only \".\") [Hello – café]:") else { return }
        if answered {
            try terminal.type("Numbers are in – see you at 6")
        }
        try terminal.type(".")
        try await confirmIfAsked()
        let (status, shown) = try await exitStatus()
        #expect(status == 0, "\(shown)")
        let record = folder.appendingPathComponent("records/org.example.Browser")
        let opened = try await RecordingApplications.started(in: folder).isEmpty ? "" : String(contentsOf: record, encoding: .utf8)
        let expected = answered ? "Numbers%20are%20in" : "Hello"
        #expect(opened.contains(expected), "\(opened)\n\(shown)")
    }

    /// Answers a "Send? [Y/n]" the sheet may ask before a message leaves.
    private func confirmIfAsked() async throws {
        for _ in 0..<20 {
            let shown = try terminal.screen()
            if shown.contains("TTY=") { return }
            if shown.contains("Send? [Y/n]") {
                try terminal.type("")
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
