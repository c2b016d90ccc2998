import Foundation
import LocalTestSupport
import Testing

/// `--set via=mailto` with attachments: mail programs known to read `attach=` (chosen by the
/// desktop file ID of the registered x-scheme-handler/mailto application) get them as URL
/// parameters; any other program gets their paths in the body.
@Suite("Mail: mailto: hand-off with attachments")
struct MailtoAttachmentTests {
    /// The URL's parts as Python's urllib reads them (independent of the code under test), as JSON.
    struct Parsed: Decodable, Equatable {
        var scheme: String
        var to: String
        var subject: [String]
        var body: [String]
        var attach: [String]
    }

    static func parse(_ url: String) throws -> Parsed {
        let script = """
            import sys, json, urllib.parse
            u = urllib.parse.urlsplit(sys.argv[1])
            q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
            print(json.dumps({'scheme': u.scheme, 'to': urllib.parse.unquote(u.path), 'subject': q.get('subject', []),
                              'body': q.get('body', []), 'attach': q.get('attach', [])}), end='')
            """
        let output = try Command.run(SMTPPeer.python, ["-c", script, url])
        return try JSONDecoder().decode(Parsed.self, from: Data(output.standardOutput.utf8))
    }

    func handOff(to id: String) throws -> (run: Command.Result, url: String, files: [URL]) {
        let home = try TestHome()
        let received = try SchemeRecorder.install(in: home, scheme: "mailto", id: id)
        let picture = try home.randomFile("a b;c.png", size: 2048)
        let document = try home.randomFile("x&y=z%20 #1+Ü.pdf", size: 3000)
        let run = try Run.share(
            ["--activity", "mail", "--set", "via=mailto", "--to", "ana@example.com", "--subject", "Fotos & more?",
             "--text", "Look:", picture.path, "https://swift.org/blog", document.path],
            home: home)
        let url = try #require(SchemeRecorder.received(received), "the handler was not launched: \(run)")
        #expect(home.outboxFiles("new").isEmpty)
        return (run, url, [picture, document])
    }

    @Test(
        "a mail program known to take attach= gets every attachment path as an attach= parameter",
        arguments: ["org.gnome.Evolution.desktop", "org.kde.kmail2.desktop", "claws-mail.desktop", "org.gnome.Geary.desktop"])
    func knownProgram(id: String) throws {
        let (run, url, files) = try handOff(to: id)
        #expect(run.status == 0, "\(run)")
        let parsed = try Self.parse(url)
        #expect(parsed.scheme == "mailto")
        #expect(parsed.to == "ana@example.com")
        #expect(parsed.subject == ["Fotos & more?"])
        #expect(parsed.body == ["Look:\r\n\r\nhttps://swift.org/blog"], "\(url)")
        #expect(parsed.attach == files.map(\.path), "\(url)")
        #expect(!url.contains(" ") && !url.contains(";c.png") && !url.contains("#"), "\(url)")
        #expect(run.standardOutput.contains("as attach= parameters"), "\(run)")
    }

    @Test("any other mail program gets no attach= and the attachment paths in the body")
    func unknownProgram() throws {
        let (run, url, files) = try handOff(to: "mailto-recorder.desktop")
        #expect(run.status == 0, "\(run)")
        let parsed = try Self.parse(url)
        #expect(parsed.to == "ana@example.com")
        #expect(parsed.subject == ["Fotos & more?"])
        #expect(parsed.attach.isEmpty && !url.contains("attach="), "\(url)")
        let expected = "Look:\n\nhttps://swift.org/blog\n\nAttachments:\n" + files.map(\.path).joined(separator: "\n")
        #expect(parsed.body == [expected.replacingOccurrences(of: "\n", with: "\r\n")], "\(url)")
        #expect(run.standardOutput.contains("paths are listed in the body"), "\(run)")
    }
}
