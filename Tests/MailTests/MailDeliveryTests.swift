import Foundation
import LocalTestSupport
import Mail
import ShareSheet
import ShareSheetSystem
import Testing

/// Messages composed with GMime and sent with libcurl to a real SMTP server (aiosmtpd) on
/// loopback, then read back by Python's `email` package, an independent parser.
@Suite("Mail over SMTP to aiosmtpd")
struct MailDeliveryTests {
    func settings(_ home: TestHome, port: Int, tls: MailSettings.StartTLS = .off) -> MailSettings {
        var settings = MailSettings(outbox: MailOutbox(folder: home.outbox))
        settings.smtp = URL(string: "smtp://127.0.0.1:\(port)")
        settings.startTLS = tls
        settings.from = "Zoë Ångström <zoe@example.org>"
        return settings
    }

    @Test("headers, non-ASCII subject and names, body, HTML alternative and byte-identical attachments")
    func composition() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let binary = try home.randomFile("data.bin", size: 3 * 1024 * 1024 + 17)
        let unicodeName = try home.randomFile("Résumé – 履歴書 2026.pdf", size: 70_001)
        let spaced = try home.randomFile("a b;c.png", size: 1234)
        let inline = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let subject = "Grüße aus Köln — 東京 📎 and a long subject line that certainly needs folding across lines"
        let body = "Hello Zoë,\n\nthe report is attached. Ünïcödé lines stay intact.\n.\nA line with only a dot, above.\n"
        let message = MailMessage(
            to: ["Jürgen Müller <juergen@example.com>", "ana@example.net"], cc: ["Chloé <chloe@example.com>"],
            bcc: ["hidden@example.com"], subject: subject, body: body,
            htmlBody: "<p>Hello <b>Zoë</b>, <a href=\"https://example.com/r?a=1&amp;b=2\">report</a></p>",
            attachments: [
                MailAttachment(content: .file(binary), filename: binary.lastPathComponent, mimeType: "application/octet-stream"),
                MailAttachment(content: .file(unicodeName), filename: unicodeName.lastPathComponent, mimeType: "application/pdf"),
                MailAttachment(content: .file(spaced), filename: spaced.lastPathComponent, mimeType: "image/png"),
                MailAttachment(content: .data(inline), filename: "notes.dat", mimeType: "application/x-test"),
            ])

        let result = try MailDelivery(settings: settings(home, port: peer.port)).deliver(message)
        guard case .sent = result else { Issue.record("not sent: \(result)"); return }
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty && home.outboxFiles("tmp").isEmpty)

        #expect(peer.received.count == 1)
        let received = try #require(peer.received.first)
        let envelope = try peer.envelope(of: received)
        #expect(envelope.from == "zoe@example.org")
        #expect(Set(envelope.recipients) == ["juergen@example.com", "ana@example.net", "chloe@example.com", "hidden@example.com"])

        let parsed = try PythonEmail.parse(received)
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.subject == subject)
        #expect(parsed.from == ["Zoë Ångström <zoe@example.org>"])
        #expect(parsed.to == ["Jürgen Müller <juergen@example.com>", "ana@example.net"])
        #expect(parsed.cc == ["Chloé <chloe@example.com>"])
        #expect(parsed.headers["bcc"] == nil, "Bcc must not reach the recipients")
        #expect(parsed.headers["message-id"]?.count == 1)
        #expect(parsed.headers["date"]?.count == 1)
        #expect(parsed.contentType == "multipart/mixed")

        let texts = parsed.parts.filter { $0.disposition != "attachment" }
        #expect(texts.map(\.contentType) == ["text/plain", "text/html"])
        #expect(texts.first?.text == body)
        #expect(texts.last?.text?.contains("<a href=\"https://example.com/r?a=1&amp;b=2\">report</a>") == true)

        let attachments = parsed.parts.filter { $0.disposition == "attachment" }
        #expect(attachments.map(\.filename) == [binary.lastPathComponent, unicodeName.lastPathComponent, "a b;c.png", "notes.dat"])
        #expect(attachments.map(\.contentType) == ["application/octet-stream", "application/pdf", "image/png", "application/x-test"])
        #expect(attachments[0].sha256 == (try sha256(of: binary)))
        #expect(attachments[1].sha256 == (try sha256(of: unicodeName)))
        #expect(attachments[2].sha256 == (try sha256(of: spaced)))
        let inlineFile = home.folder.appendingPathComponent("inline.dat")
        try inline.write(to: inlineFile)
        #expect(attachments[3].sha256 == (try sha256(of: inlineFile)))
        // The non-ASCII file name travels as an RFC 2231 parameter.
        let raw = try String(contentsOf: received, encoding: .utf8)
        let lowered = raw.lowercased()
        #expect(lowered.contains("filename*0*=utf-8''r%c3%a9sum%c3%a9") || lowered.contains("filename*=utf-8''r%c3%a9sum%c3%a9"))
    }

    @Test("a header value with CR/LF is refused before anything is queued or sent")
    func headerInjection() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let delivery = MailDelivery(settings: settings(home, port: peer.port))
        let attempts = [
            MailMessage(to: ["ana@example.com"], subject: "Hi\r\nBcc: victim@example.com"),
            MailMessage(to: ["ana@example.com\r\nBcc: victim@example.com"], subject: "Hi"),
            MailMessage(to: ["Evil\nBcc: victim@example.com <ana@example.com>"], subject: "Hi"),
            MailMessage(to: ["ana@example.com"], subject: "Hi\nX-Injected: yes"),
        ]
        for attempt in attempts {
            #expect {
                _ = try delivery.deliver(attempt)
            } throws: { error in
                (error as? ShareError)?.kind == .badData
            }
        }
        #expect(peer.received.isEmpty)
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("tmp").isEmpty)
    }

    @Test("STARTTLS with a certificate the test made and trusts; AUTH accepted")
    func startTLSAndLogin() throws {
        let home = try TestHome()
        let certificates = try TestCertificates(in: home.folder)
        let peer = try SMTPPeer(
            options: .init(tls: (certificates.certificate, certificates.key), login: ("ana", "s3cret pässword")), in: home.folder)
        defer { peer.stop() }
        var settings = settings(home, port: peer.port, tls: .required)
        settings.caFile = certificates.ca.path
        settings.user = "ana"
        settings.password = "s3cret pässword"
        let result = try MailDelivery(settings: settings).deliver(
            MailMessage(to: ["bob@example.com"], subject: "over TLS", body: "secret"))
        guard case .sent = result else { Issue.record("not sent: \(result)"); return }
        #expect(peer.received.count == 1)
        #expect(try PythonEmail.parse(#require(peer.received.first)).subject == "over TLS")
    }

    @Test("a wrong password is refused: nothing is delivered, the message stays queued")
    func loginRefused() throws {
        let home = try TestHome()
        let certificates = try TestCertificates(in: home.folder)
        let peer = try SMTPPeer(
            options: .init(tls: (certificates.certificate, certificates.key), login: ("ana", "right")), in: home.folder)
        defer { peer.stop() }
        var settings = settings(home, port: peer.port, tls: .required)
        settings.caFile = certificates.ca.path
        settings.user = "ana"
        settings.password = "wrong"
        #expect {
            _ = try MailDelivery(settings: settings).deliver(MailMessage(to: ["bob@example.com"], subject: "x", body: "y"))
        } throws: { error in
            guard let error = error as? ShareError else { return false }
            return error.kind == .unavailable && error.message.contains("refused the login") && error.message.contains("kept in the outbox")
        }
        #expect(peer.received.isEmpty)
        #expect(home.outboxFiles("new").count == 1)
        #expect(home.outboxFiles("sending").isEmpty)
    }

    @Test("STARTTLS required: a certificate nobody trusts stops the send, nothing goes out in clear")
    func untrustedCertificate() throws {
        let home = try TestHome()
        let certificates = try TestCertificates(in: home.folder)
        let peer = try SMTPPeer(options: .init(tls: (certificates.certificate, certificates.key)), in: home.folder)
        defer { peer.stop() }
        // No cafile: the throwaway CA is not trusted.
        #expect(throws: ShareError.self) {
            _ = try MailDelivery(settings: settings(home, port: peer.port, tls: .required)).deliver(
                MailMessage(to: ["bob@example.com"], subject: "x", body: "y"))
        }
        #expect(peer.received.isEmpty)
        #expect(home.outboxFiles("new").count == 1)
    }

    @Test("STARTTLS required: a server that does not offer it gets nothing")
    func startTLSMissing() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        #expect {
            _ = try MailDelivery(settings: settings(home, port: peer.port, tls: .required)).deliver(
                MailMessage(to: ["bob@example.com"], subject: "x", body: "y"))
        } throws: { error in
            // The setting asks for what this server lacks: a configuration error naming the fix.
            guard let error = error as? ShareError else { return false }
            return error.kind == .configuration && error.fix == .chooseMailSecurity
                && error.setting == ShareError.Setting(group: "mail", "starttls") && !error.message.contains("starttls=")
        }
        #expect(peer.received.isEmpty)
    }

    @Test("MailComposer (seed 000's Send Email) sends an HTML body with a plain alternative and data attachment")
    func composer() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let composer = MailComposer(settings: settings(home, port: peer.port))
        #expect(MailComposer.canSendMail())
        composer.setToRecipients(["ana@example.com"])
        composer.setCcRecipients(["cc@example.com"])
        composer.setBccRecipients(["bcc@example.com"])
        composer.setSubject("Mustache")
        composer.setMessageBody("<p>Look &amp; see</p>", isHTML: true)
        composer.addAttachmentData(Data("hi".utf8), mimeType: "text/plain", fileName: "hi.txt")
        let result = try composer.send()
        guard case .sent = result else { Issue.record("not sent: \(result)"); return }
        let parsed = try PythonEmail.parse(try #require(peer.received.first))
        #expect(parsed.subject == "Mustache")
        #expect(parsed.parts.map(\.contentType) == ["text/plain", "text/html", "text/plain"])
        #expect(parsed.parts[0].text?.trimmingCharacters(in: .whitespacesAndNewlines) == "Look & see")
        #expect(parsed.parts[2].filename == "hi.txt")
        #expect(Set(try peer.envelope(of: peer.received[0]).recipients) == ["ana@example.com", "cc@example.com", "bcc@example.com"])
    }

    @Test("without a server the message is queued whole in the Maildir outbox (tmp/ then new/)")
    func embeddedDefault() throws {
        let home = try TestHome()
        let result = try MailDelivery(settings: MailSettings(outbox: MailOutbox(folder: home.outbox))).deliver(
            MailMessage(to: ["ana@example.com"], subject: "queued", body: "later"))
        guard case .queued(let id, let file) = result else { Issue.record("not queued: \(result)"); return }
        #expect(home.outboxFiles("new") == [id])
        #expect(home.outboxFiles("tmp").isEmpty)
        let parsed = try PythonEmail.parse(file)
        #expect(parsed.subject == "queued")
        let entries = MailOutbox(folder: home.outbox).entries()
        #expect(entries.map(\.id) == [id])
        #expect(entries.first?.state == .queued)
        #expect(entries.first?.recipients == ["ana@example.com"])
    }
}
