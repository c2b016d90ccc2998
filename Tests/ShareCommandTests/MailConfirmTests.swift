// Mail typed in the terminal sheet is summarised (To, Subject, attachments with sizes, the
// server) and sent only after "Send? [Y/n]"; a share whose every field was given on the command
// line, or one without a terminal, is sent without the question. Real peers: tmux for the
// terminal, aiosmtpd on loopback for the server.
import Foundation
import LocalTestSupport
import Testing

@Suite("Mail: a summary and 'Send? [Y/n]' before the terminal sheet sends", .serialized)
final class MailConfirmTests {
    let folder: URL
    let terminal = TmuxTerminal()
    let peer: SMTPPeer

    init() throws {
        folder = try TemporaryFolder.make("share-mail-confirm")
        // 18 bytes: the summary names the size.
        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        peer = try SMTPPeer(in: folder)
        let config = folder.appendingPathComponent("home/config/sharesheet")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n".utf8)
            .write(to: config.appendingPathComponent("config"))
    }

    deinit {
        terminal.stop()
        peer.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func startShare(_ arguments: String) throws {
        var environment = ShareBinary.environment(in: folder)
        environment["TERM"] = "xterm"
        try terminal.start(try TmuxTerminal.shareCommand(arguments, in: folder, environment: environment))
    }

    /// Picks Mail in the sheet and types To, Subject and an empty body; true once "Send?" is asked.
    private func fillMail() async throws -> Bool {
        try startShare("notes.txt")
        guard try await terminal.waitFor("Filter:") else { return false }
        try terminal.type("mail")
        guard try await terminal.waitFor("To (e-mail addresses") else { return false }
        try terminal.type("bob@example.com")
        guard try await terminal.waitFor("More fields (Cc, Bcc)? [y/N]") else { return false }
        try terminal.type("")
        guard try await terminal.waitFor("Subject") else { return false }
        try terminal.type("Q3 numbers")
        guard try await terminal.waitFor("Body") else { return false }
        try terminal.type(".")
        return try await terminal.waitFor("Send? [Y/n]:")
    }

    @Test("the summary names To, Subject, the attachment with its size and the server; n sends nothing and exits 130")
    func noSendsNothing() async throws {
        guard try await fillMail() else { return }
        let summary = try terminal.screen()
        #expect(summary.contains("  To: bob@example.com"), "\(summary)")
        #expect(summary.contains("  Subject: Q3 numbers"), "\(summary)")
        #expect(summary.contains("  Attachments: notes.txt (18 bytes)"), "\(summary)")
        #expect(summary.contains("  Server: 127.0.0.1:\(peer.port)"), "\(summary)")
        try terminal.type("n")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=130"), "\(shown)")
        #expect(shown.contains("TTY=restored"), "\(shown)")
        #expect(peer.received.isEmpty, "a message reached the server after n:\n\(shown)")
        let outbox = folder.appendingPathComponent("home/data/sharesheet/Outbox/new")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).isEmpty)
    }

    @Test("Enter at 'Send? [Y/n]' sends the mail to the server")
    func enterSends() async throws {
        guard try await fillMail() else { return }
        try terminal.type("")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        let received = try #require(peer.received.first, "nothing reached the SMTP peer:\n\(shown)")
        let message = try String(contentsOf: received, encoding: .utf8)
        #expect(message.contains("Subject: Q3 numbers"), "\(message)")
        #expect(try peer.envelope(of: received).recipients == ["bob@example.com"])
    }

    @Test("--activity mail with every field on the command line is sent on a terminal without the question")
    func everythingGivenIsNotAsked() async throws {
        try startShare("--activity mail --to bob@example.com --subject Q3 notes.txt")
        guard try await terminal.waitFor("TTY=") else { return }
        let shown = try terminal.screen()
        #expect(shown.contains("EXIT=0"), "\(shown)")
        #expect(!shown.contains("Send?"), "\(shown)")
        #expect(peer.received.count == 1, "\(shown)")
    }

    @Test("without a terminal Mail is sent without the question")
    func noTerminalIsNotAsked() async throws {
        let run = try await ShareBinary.run(
            ["--activity", "mail", "--to", "bob@example.com", "--subject", "Q3", "notes.txt"], in: folder, timeout: 60)
        #expect(run.status == 0, "\(run)")
        #expect(!run.standardError.contains("Send?") && !run.standardOutput.contains("Send?"), "\(run)")
        #expect(peer.received.count == 1)
    }
}
