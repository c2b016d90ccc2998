import Foundation
import LocalTestSupport
import Testing

/// What the Mail settings leave to fix, said by the command end to end against aiosmtpd: a plain
/// server that meets the default `starttls=required` (78, naming the setting, not 69), and a
/// From address made up from the login and host names (said once).
@Suite("share --activity mail, settings to fix")
struct MailSettingsMistakesTests {
    @Test("exit 78 naming starttls=optional and starttls=off in [mail]; nothing sent, the message kept")
    func plainServerWithTheDefault() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nfrom=ana@example.org\n")
        let run = try Run.share(["--activity", "mail", "--to", "bob@example.com", "--text", "hi"], home: home)
        #expect(run.status == 78, "\(run)")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run)")
        #expect(run.standardError.contains("does not offer STARTTLS"), "\(run)")
        #expect(run.standardError.contains("starttls=optional") && run.standardError.contains("starttls=off"), "\(run)")
        #expect(run.standardError.contains("[mail]"), "\(run)")
        #expect(peer.received.isEmpty)
        #expect(home.outboxFiles("new").count == 1, "kept for a flush once the setting is changed")
    }

    @Test("a From address that had to be guessed is said once on standard error; a set one is not said")
    func guessedSender() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\n")
        let run = try Run.share(["--activity", "mail", "--to", "bob@example.com", "--text", "hi"], home: home)
        #expect(run.status == 0, "\(run)")
        let message = try #require(peer.received.first, "\(run)")
        let sender = try peer.envelope(of: message).from
        #expect(sender.hasPrefix("tester@"), "made from USER: \(sender)")
        let mentions = run.standardError.split(separator: "\n").filter { $0.contains(sender) }
        #expect(mentions == ["share: No From address is set up, so the message was sent from \(sender)."], "\(run)")
        #expect(run.standardError.contains("[mail] from="), "\(run)")

        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=ana@example.org\n")
        let set = try Run.share(["--activity", "mail", "--to", "bob@example.com", "--text", "hi"], home: home)
        #expect(set.status == 0 && set.standardError.isEmpty, "\(set)")
    }
}
