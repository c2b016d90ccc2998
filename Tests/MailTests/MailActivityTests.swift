import Foundation
import LocalTestSupport
import Mail
import ShareSheet
import Testing

/// An item source that gives an attributed text with a link, and a subject for Mail.
@MainActor
final class NewsletterSource: ActivityItemSource {
    func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any { AttributedString() }

    func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? {
        var text = AttributedString("Read <this> & ")
        var link = AttributedString("the post")
        link.link = URL(string: "https://example.com/post?id=1&x=2")
        text.append(link)
        return text
    }

    func activityViewController(
        _ activityViewController: ActivityViewController, subjectForActivityType activityType: ActivityType?
    ) -> String {
        activityType == .mail ? "Newsletter — Ausgabe 7" : ""
    }
}

/// The Mail activity inside the sheet's pipeline: the source's subject, attributed text as an
/// HTML alternative, delivered to aiosmtpd.
@MainActor
@Suite("Mail activity in the sheet")
struct MailActivityTests {
    func present(_ items: [Any], values: InterfaceValues, port: Int, home: TestHome) async -> ShareOutcome {
        let controller = makeController(items, port: port, home: home)
        controller.present(with: ScriptedPresenter(pick: .mail, values: values))
        return await controller.waitForCompletion()
    }

    func makeController(_ items: [Any], port: Int, home: TestHome) -> ActivityViewController {
        let registry = ActivityRegistry()
        let outbox = MailOutbox(folder: home.outbox)
        registry.install(.mail) {
            MailActivity(descriptor: registry.descriptor(for: .mail)!) { _ in
                var settings = MailSettings(outbox: outbox)
                settings.smtp = URL(string: "smtp://127.0.0.1:\(port)")
                settings.startTLS = .off
                settings.from = "news@example.org"
                return settings
            }
        }
        return ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
    }

    @Test("the source's subject, the attributed text as plain + HTML with its link, and an image attachment")
    func sourceSubjectAndHTML() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 64))
        let outcome = await present(
            [NewsletterSource(), Image(data: png, type: .png)], values: ["to": .text("reader@example.com")],
            port: peer.port, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let parsed = try PythonEmail.parse(try #require(peer.received.first))
        #expect(parsed.subject == "Newsletter — Ausgabe 7")
        #expect(parsed.parts.map(\.contentType) == ["text/plain", "text/html", "image/png"])
        #expect(parsed.parts[0].text == "Read <this> & the post")
        #expect(parsed.parts[1].text?.contains("Read &lt;this&gt; &amp; <a href=\"https://example.com/post?id=1&amp;x=2\">the post</a>") == true)
        #expect(parsed.parts[2].filename == "image.png")
        #expect(parsed.parts[2].size == png.count)
    }

    @Test("--subject (a preset) replaces the source's subject")
    func presetSubjectWins() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let outcome = await present(
            [NewsletterSource()], values: ["to": .text("reader@example.com"), "subject": .text("Mine")], port: peer.port,
            home: home)
        #expect(outcome.completed)
        #expect(try PythonEmail.parse(#require(peer.received.first)).subject == "Mine")
    }

    @Test("a mailto: item gives recipients, subject and body")
    func mailtoItem() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let link = try #require(URL(string: "mailto:ana@example.com?cc=bo@example.com&subject=Hallo%20Welt&body=Zeile%201"))
        let outcome = await present([link], values: [:], port: peer.port, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let received = try #require(peer.received.first)
        let parsed = try PythonEmail.parse(received)
        #expect(parsed.subject == "Hallo Welt")
        #expect(parsed.to == ["ana@example.com"])
        #expect(parsed.cc == ["bo@example.com"])
        // A one-part message ends with a line break of its own.
        #expect(parsed.parts.first?.text?.trimmingCharacters(in: .newlines) == "Zeile 1")
    }

    @Test("dismissing the sheet mid-upload stops the transfer and leaves nothing in the outbox")
    func cancelDuringSend() async throws {
        let home = try TestHome()
        let peer = try SMTPPeer(options: .init(stallInData: true), in: home.folder)
        defer { peer.stop() }
        // Larger than what the loopback socket buffers hold, so the upload is stuck midway.
        let file = try home.randomFile("big.bin", size: 48 * 1024 * 1024)
        let controller = makeController([file], port: peer.port, home: home)
        controller.present(with: ScriptedPresenter(pick: .mail, values: ["to": .text("bo@example.com")]))
        let deadline = Date().addingTimeInterval(60)
        while !peer.dataStarted, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(peer.dataStarted)
        #expect(home.outboxFiles("sending").count == 1)
        controller.dismiss()
        let outcome = await controller.waitForCompletion()
        #expect(outcome.activityType == nil && !outcome.completed)
        // The transfer notices within about a second; then the message is gone, not half-kept.
        let gone = Date().addingTimeInterval(30)
        while !(home.outboxFiles("sending").isEmpty && home.outboxFiles("new").isEmpty), Date() < gone {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(home.outboxFiles("sending").isEmpty && home.outboxFiles("new").isEmpty && home.outboxFiles("tmp").isEmpty)
        #expect(peer.received.isEmpty)
    }
}
