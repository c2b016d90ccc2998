import Foundation
import LocalTestSupport
import Testing

/// The terminal sheet as a person meets it (#14): in tmux, a real pseudo-terminal, with keys
/// sent the way they are typed. Each test has its own tmux server, folder and home.
@Suite("the terminal sheet: keys, questions, editor", .serialized)
final class TerminalSheetKeysTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }
    let terminal = TmuxTerminal()

    init() throws {
        fixture = try CommandFolder()
    }

    deinit { terminal.stop() }

    private func startShare(_ arguments: String, extra: [String: String] = [:]) throws {
        var environment = ShareBinary.environment(in: folder).merging(extra) { _, given in given }
        environment["TERM"] = "xterm"
        try terminal.start(try TmuxTerminal.shareCommand(arguments, in: folder, environment: environment))
    }

    private func addApplication(_ id: String, name: String, mimeType: String) async throws {
        try await RecordingApplications.add(id, name: name, mimeType: mimeType, in: folder)
    }

    private func queuedMessage() throws -> String? {
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        guard FileManager.default.fileExists(atPath: outbox.path),
            let name = try FileManager.default.contentsOfDirectory(atPath: outbox.path).first
        else { return nil }
        return try String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8)
    }

    // MARK: Open In

    @Test func openInAsksWhichApplicationWhenTwoFit() async throws {
        try Data("%PDF-1.4\n".utf8).write(to: folder.appendingPathComponent("report.pdf"))
        try await addApplication("org.example.Reader", name: "Example Reader", mimeType: "application/pdf")
        try await addApplication("org.example.Viewer", name: "Example Viewer", mimeType: "application/pdf")
        try startShare("--activity open-in report.pdf")
        guard try await terminal.waitFor("Application (number or name)") else { return }
        let asked = try terminal.screen()
        #expect(asked.contains("1) Example Reader") && asked.contains("2) Example Viewer"), "\(asked)")
        // Only what is missing is asked: "Always use for this type" keeps its default.
        try terminal.type("Example Viewer")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        #expect(!shown.contains("Always use for this type"), "\(shown)")
        let records = folder.appendingPathComponent("records")
        var opened: [String] = []
        for _ in 0..<200 {
            opened = try FileManager.default.contentsOfDirectory(atPath: records.path)
            if !opened.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(opened == ["org.example.Viewer"], "\(opened)")
    }

    @Test func openInWithoutATerminalNamesTheCandidates() async throws {
        try Data("%PDF-1.4\n".utf8).write(to: folder.appendingPathComponent("report.pdf"))
        try await addApplication("org.example.Reader", name: "Example Reader", mimeType: "application/pdf")
        try await addApplication("org.example.Viewer", name: "Example Viewer", mimeType: "application/pdf")
        let run = try await ShareBinary.run(["--activity", "open-in", "report.pdf"], in: folder)
        #expect(run.status == 64, "\(run)")
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run)")
        #expect(run.standardError.contains("set it with --app …: one of "), "\(run)")
        #expect(run.standardError.contains("org.example.Reader.desktop (Example Reader)"), "\(run)")
        #expect(run.standardError.contains("org.example.Viewer.desktop (Example Viewer)"), "\(run)")
    }

    // MARK: Only the fields an activity needs

    @Test func ccAndBccAreAskedOnlyAfterMore() async throws {
        try startShare("--to ana@example.com --subject 'Q3 numbers' notes.txt")
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("More fields (Cc, Bcc)? [y/N]") else { return }
        try terminal.type("y")
        guard try await terminal.waitFor("Cc (e-mail addresses") else { return }
        try terminal.type("cy@example.com")
        guard try await terminal.waitFor("Bcc (e-mail addresses") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("Body") else { return }
        try terminal.type(".")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=75"), "queued, no server: \(shown)")
        let message = try #require(try queuedMessage())
        #expect(message.contains("Cc: cy@example.com"), "\(message)")
    }

    @Test func printAsksNothingWithoutAPrinter() async throws {
        // No scheduler answers there, so the job is saved as a PDF: none of the print dialog's
        // questions is asked, not even "More fields?" (PrintQuestionsTests: with a printer they are).
        try startShare("notes.txt", extra: ["CUPS_SERVER": folder.appendingPathComponent("no-cupsd.sock").path])
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("print")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        #expect(shown.contains("No printer is set up: the document will be saved as PDF."), "\(shown)")
        #expect(!shown.contains("More fields"), "\(shown)")
        #expect(!shown.contains("Printer:") && !shown.contains("Copies (1–999)"), "\(shown)")
        #expect(shown.contains("notes.pdf"), "the saved PDF's path is printed:\n\(shown)")
    }

    // MARK: Arrow keys

    @Test func arrowKeysPickAndTheTerminalIsRestored() async throws {
        try startShare("notes.txt")
        guard try await terminal.waitFor("Filter:") else { return }
        // The selection starts on the first activity; ESC [ B moves it down one.
        let before = try terminal.screen()
        let entries = before.split(separator: "\n").filter { $0.hasPrefix("› ") || $0.hasPrefix("  ") && $0.first(where: \.isNumber) != nil }
        let lines = before.split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("› ") }, "\(before)")
        let second = lines[first + 1].trimmingCharacters(in: .whitespaces)
        #expect(!entries.isEmpty)
        try terminal.send(literally: "\u{1B}[B")
        guard try await terminal.waitFor("› " + second) else { return }
        try terminal.press("Enter")
        // "2 Message (message)": the title is what follows the number.
        let title = String(second.drop { $0.isNumber || $0 == " " }.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
        guard try await terminal.waitFor("Picked: " + title) else { return }
        // The picked activity asks line by line; Ctrl-D there cancels it. Typed once the
        // question shows, as a person would: keys typed before the line editor takes the
        // terminal are flushed when it does (TCSAFLUSH), under the thread sanitizer's pace too.
        guard try await terminal.waitFor("comma-separated):") else { return }
        try terminal.press("C-d")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("TTY=restored"), "\(shown)")
        #expect(!shown.contains("EXIT=0"), "\(shown)")
    }

    @Test func typingFiltersAndCtrlCRestoresTheTerminal() async throws {
        try startShare("notes.txt")
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.send(literally: "mai")
        guard try await terminal.waitFor("Filter: mai") else { return }
        guard try await terminal.waitFor("Mail (mail)") else { return }
        let filtered = try terminal.screen()
        let listed = filtered.split(separator: "\n").filter { $0.hasPrefix("› ") || $0.hasPrefix("  ") }
            .filter { $0.contains("(") && $0.first(where: \.isNumber) != nil }
        #expect(listed.count == 1 && listed[0].hasPrefix("› ") && listed[0].contains("Mail (mail)"), "\(filtered)")
        try terminal.press("C-c")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("Cancelled."), "\(shown)")
        #expect(shown.contains("EXIT=130"), "\(shown)")
        #expect(shown.contains("TTY=restored"), "\(shown)")
    }

    // MARK: Line editing

    @Test func fieldsAreEditedWithLibedit() async throws {
        try startShare("--subject Hi notes.txt")
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("To (e-mail addresses") else { return }
        // Typed out of order: the end first, then Home and the start, as libedit allows.
        try terminal.send(literally: "example.com")
        try terminal.press("Home")
        try terminal.type("ana@")
        guard try await terminal.waitFor("More fields") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("Body") else { return }
        try terminal.type(".")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=75"), "queued, no server: \(shown)")
        let message = try #require(try queuedMessage(), "\(shown)")
        #expect(message.contains("To: ana@example.com"), "\(message)")
    }

    @Test func ctrlCInAFieldRestoresTheTerminal() async throws {
        try startShare("notes.txt")
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("To (e-mail addresses") else { return }
        try terminal.send(literally: "half typed")
        try terminal.press("C-c")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=130"), "\(shown)")
        #expect(shown.contains("TTY=restored"), "\(shown)")
        #expect(try queuedMessage() == nil)
    }

    // MARK: The editor

    @Test func theBodyIsWrittenInTheEditorAndDelivered() async throws {
        let peer = try SMTPPeer(in: folder)
        defer { peer.stop() }
        let config = folder.appendingPathComponent("home/config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n".utf8)
            .write(to: config.appendingPathComponent("config"))
        // The "editor" appends a line to the file it is given, and notes the file's mode.
        let editor = folder.appendingPathComponent("editor.sh")
        let modeRecord = folder.appendingPathComponent("editor-mode")
        try Data(
            "#!/bin/sh\nstat -c %a \"$1\" > \(modeRecord.path)\nprintf 'Written in the editor, line one\\nand two\\n' >> \"$1\"\n".utf8
        ).write(to: editor)
        chmod(editor.path, 0o755)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

        try startShare(
            "--to bob@example.com --subject Hi notes.txt", extra: ["EDITOR": editor.path, "TMPDIR": temporary.path])
        guard try await terminal.waitFor("Filter:") else { return }
        try terminal.type("mail")
        guard try await terminal.waitFor("More fields") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("Send? [Y/n]") else { return }
        try terminal.type("")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        #expect(shown.contains("TTY=restored"), "\(shown)")
        let received = try #require(peer.received.first, "nothing reached the SMTP peer:\n\(shown)")
        let message = try String(contentsOf: received, encoding: .utf8)
        #expect(message.contains("Written in the editor, line one"), "\(message)")
        #expect(try String(contentsOf: modeRecord, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "600")
        // The temporary file is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("share-message") }.isEmpty)
    }
}
