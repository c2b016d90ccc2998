import Foundation
import LocalTestSupport
import Testing

@testable import Mail

/// Messages other tools drop into the outbox (#28): RFC 5322 has CRLF line ends on the wire, and
/// a mail program that writes a Maildir often keeps them. Run as a person would: the built binary
/// in a temporary HOME, against aiosmtpd on loopback.
@Suite("share outbox: a message with CRLF line ends, written by another tool")
struct ForeignMessageTests {
    /// A message as another mail program writes it: CRLF line ends, a Bcc, a body line that
    /// starts with a dot.
    static let message = [
        "From: Ana Lima <ana@example.org>", "To: Bob <bob@example.com>", "Bcc: carol@example.com",
        "Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= from", " another tool", "Date: Tue, 14 May 2024 10:00:00 +0200",
        "Message-ID: <1@elsewhere.example>", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "",
        "Line one", ".a line that starts with a dot", "last line", "",
    ].joined(separator: "\r\n")

    /// Drops `message` into `Outbox/new` as a Maildir writer on another host would; returns its id.
    static func drop(into home: TestHome) throws -> String {
        for sub in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(
                at: home.outbox.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let id = "1715673600.M1P4242R7.elsewhere"
        try Data(message.utf8).write(to: home.outbox.appendingPathComponent("new").appendingPathComponent(id))
        return id
    }

    @Test("outbox list and show read its headers")
    func listAndShow() throws {
        let home = try TestHome()
        let id = try Self.drop(into: home)
        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput.contains("mail  queued  bob@example.com, carol@example.com  Grüße from another tool"), "\(list)")

        let show = try Run.share(["outbox", "show", id], home: home)
        #expect(show.status == 0, "\(show)")
        #expect(show.standardOutput.hasSuffix("To: Bob <bob@example.com>\nBcc: carol@example.com\n"
            + "Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= from\n another tool\nDate: Tue, 14 May 2024 10:00:00 +0200\n"
            + "Message-ID: <1@elsewhere.example>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"), "\(show)")
        #expect(!show.standardOutput.contains("\r") && !show.standardOutput.contains("Line one"), "\(show)")
    }

    @Test("outbox flush sends it once, without its Bcc and with CRLF (not CR CR LF), and empties the outbox")
    func flush() throws {
        let home = try TestHome()
        let id = try Self.drop(into: home)
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let flush = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"], home: home)
        #expect(flush.status == 0, "\(flush)")
        #expect(flush.standardOutput == "sent \(id)\n", "\(flush)")
        #expect(peer.received.count == 1)
        let received = try #require(peer.received.first)
        let envelope = try peer.envelope(of: received)
        #expect(envelope.from == "ana@example.org")
        #expect(envelope.recipients == ["bob@example.com", "carol@example.com"])

        let bytes = try Data(contentsOf: received)
        let expected = Self.message.replacingOccurrences(of: "Bcc: carol@example.com\r\n", with: "")
        #expect(String(decoding: bytes, as: UTF8.self) == expected, "the message as written, less its Bcc line")
        let parsed = try PythonEmail.parse(received)
        #expect(parsed.subject == "Grüße from another tool")
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.parts.first?.text == "Line one\n.a line that starts with a dot\nlast line\n")

        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
        let again = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"], home: home)
        #expect(again.status == 0 && again.standardOutput.isEmpty, "\(again)")
        #expect(peer.received.count == 1, "sent once")
    }

    @Test("the blank line that ends CRLF headers is found when a read ends inside it")
    func blankLineAcrossReads() throws {
        let folder = try TemporaryFolder.make("foreign-message")
        defer { TemporaryFolder(existing: folder).remove() }
        // Pad the header section so that its CR LF CR LF straddles the reader's 16 KiB reads at
        // each possible point.
        for split in 1...3 {
            let prefix = "To: bob@example.com\r\nX-Padding: "
            let padding = String(repeating: "x", count: 16 * 1024 - prefix.utf8.count - split)
            let text = prefix + padding + "\r\n\r\nbody\r\n"
            let url = folder.appendingPathComponent("\(split)")
            try Data(text.utf8).write(to: url)
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            let header = try #require(HeaderSection.read(descriptor), "split \(split)")
            #expect(header.length == text.utf8.count - "body\r\n".utf8.count, "split \(split)")
            #expect(header.addresses("To") == ["bob@example.com"])
            #expect(header.value("X-Padding") == padding)
            #expect(header.withoutBcc == Data((prefix.replacingOccurrences(of: "\r", with: "") + padding + "\n\n").utf8))
        }
    }
}
