import Foundation
import LocalTestSupport
import Testing

/// `share --activity mail` and `share outbox`, run as a person would run them: the built binary
/// in a temporary HOME, against aiosmtpd on loopback.
@Suite("share --activity mail and share outbox, end to end")
struct MailCommandLineTests {
    @Test("an invalid address fails with 65, names it, and queues nothing")
    func invalidAddress() throws {
        let home = try TestHome()
        let run = try Run.share(["--activity", "mail", "--to", "ana@example.com,not an address", "--text", "hi"], home: home)
        #expect(run.status == 65, "\(run)")
        #expect(run.standardError.contains("not an address"), "\(run)")
        #expect(home.outboxFiles("new").isEmpty)
    }

    @Test("CR/LF in --subject or --to cannot inject a header: refused with 65, nothing queued")
    func headerInjection() throws {
        let home = try TestHome()
        for arguments in [
            ["--to", "ana@example.com", "--subject", "Hello\r\nBcc: victim@example.com"],
            ["--to", "ana@example.com", "--subject", "Hello\nX-Injected: 1"],
            ["--set", "to=ana@example.com\r\nBcc: victim@example.com"],
            ["--to", "ana@example.com", "--set", "cc=Evil\nBcc: v@example.com <cc@example.com>"],
        ] {
            let run = try Run.share(["--activity", "mail", "--text", "hi"] + arguments, home: home)
            #expect(run.status == 65, "\(arguments): \(run)")
            #expect(run.standardError.contains("line break"), "\(run)")
        }
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("tmp").isEmpty)
    }

    @Test("with no configuration the message is queued in the outbox (exit 75) and listed")
    func embeddedDefault() throws {
        let home = try TestHome()
        let run = try Run.share(
            ["--activity", "mail", "--to", "ana@example.com", "--subject", "Später", "--text", "queued for later"], home: home)
        #expect(run.status == 75, "\(run)")
        let queued = home.outboxFiles("new")
        #expect(queued.count == 1)
        #expect(run.standardOutput.contains(queued.first ?? "?"))
        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("mail  queued  ana@example.com  Später"), "\(list)")
        let show = try Run.share(["outbox", "show", String(queued[0].prefix(12))], home: home)
        #expect(show.status == 0 && show.standardOutput.contains("To: ana@example.com"), "\(show)")
    }

    @Test("configured server: files (including 'a b;c.png'), a web link and --subject arrive intact")
    func configuredServer() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nfrom=Ana Lima <ana@example.org>\n")
        let picture = try home.randomFile("a b;c.png", size: 4096)
        let document = try home.randomFile("Überblick.pdf", size: 10_000)
        let run = try Run.share(
            ["--activity", "mail", "--to", "bob@example.com", "--subject", "Fotos", "--text", "Look:", picture.path,
             "https://swift.org/blog", document.path],
            home: home)
        #expect(run.status == 0, "\(run)")
        #expect(peer.received.count == 1)
        let parsed = try PythonEmail.parse(try #require(peer.received.first))
        #expect(parsed.subject == "Fotos")
        #expect(parsed.from == ["Ana Lima <ana@example.org>"])
        #expect(parsed.parts.first?.text == "Look:\n\nhttps://swift.org/blog")
        let attachments = parsed.parts.filter { $0.disposition == "attachment" }
        #expect(attachments.map(\.filename) == ["a b;c.png", "Überblick.pdf"])
        #expect(attachments.map(\.contentType) == ["image/png", "application/pdf"])
        #expect(attachments.first?.sha256 == (try sha256(of: picture)))
        #expect(attachments.last?.sha256 == (try sha256(of: document)))
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
    }

    @Test("a missing attachment fails with 66 naming it, and leaves no file")
    func missingFile() throws {
        let home = try TestHome()
        let run = try Run.share(["--activity", "mail", "--to", "a@example.com", "nope.pdf"], home: home)
        #expect(run.status == 66, "\(run)")
        #expect(run.standardError.contains("nope.pdf"))
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("tmp").isEmpty)
    }

    @Test("server down: queued + exit 75; server back: share outbox flush delivers exactly once")
    func serverDownThenFlush() throws {
        let home = try TestHome()
        let closed = (try Loopback.freePort())
        let run = try Run.share(
            ["--activity", "mail", "--set", "smtp=smtp://127.0.0.1:\(closed)", "--set", "starttls=off", "--to",
             "bob@example.com", "--subject", "retry me", "--text", "body", "--json"],
            home: home)
        #expect(run.status == 75, "\(run)")
        #expect(run.standardOutput.contains("\"code\":\"temporary-failure\""), "\(run)")
        #expect(run.standardOutput.contains("\"disposition\":\"queued\""), "\(run)")
        #expect(run.standardOutput.contains("cannot be reached") && run.standardOutput.contains("outbox"), "\(run)")
        let queued = home.outboxFiles("new")
        #expect(queued.count == 1)
        #expect(run.standardOutput.contains(queued.first ?? "?"), "the result names the queued file: \(run)")

        // Still down: flush keeps it and says so with 75.
        let stillDown = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(closed)", "--set", "starttls=off"], home: home)
        #expect(stillDown.status == 75, "\(stillDown)")
        #expect(home.outboxFiles("new") == queued)

        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let flush = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"], home: home)
        #expect(flush.status == 0, "\(flush)")
        #expect(flush.standardOutput == "sent \(queued[0])\n")
        #expect(peer.received.count == 1)
        #expect(try PythonEmail.parse(#require(peer.received.first)).subject == "retry me")
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)

        let again = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"], home: home)
        #expect(again.status == 0 && again.standardOutput.isEmpty, "\(again)")
        #expect(peer.received.count == 1, "a flushed message is never sent twice")
    }

    @Test("killed mid-send: the outbox holds the whole message as interrupted, never re-sent on its own")
    func killedDuringSend() throws {
        let home = try TestHome()
        let hanging = try SMTPPeer(options: .init(hangInData: true), in: home.folder)
        defer { hanging.stop() }
        let attachment = try home.randomFile("video.bin", size: 8 * 1024 * 1024)
        let binary = try #require(Share.url)
        let process = try Command.start(
            binary.path,
            ["--activity", "mail", "--set", "smtp=smtp://127.0.0.1:\(hanging.port)", "--set", "starttls=off", "--to",
             "bob@example.com", "--subject", "big", attachment.path],
            environment: home.environment, in: home.folder)
        defer { process.remove() }
        let deadline = Date().addingTimeInterval(60)
        while !hanging.dataStarted, process.isRunning, Date() < deadline { usleep(20_000) }
        #expect(hanging.dataStarted)
        process.kill(SIGKILL)
        process.waitUntilExit()

        #expect(home.outboxFiles("tmp").isEmpty)
        #expect(home.outboxFiles("new").isEmpty)
        let sending = home.outboxFiles("sending")
        #expect(sending.count == 1)
        let id = try #require(sending.first)
        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.standardOutput.contains("\(id)  mail  interrupted"), "\(list)")
        // The stored message is whole: Python reads the attachment back byte for byte.
        let stored = home.outbox.appendingPathComponent("sending/\(id)")
        let parsed = try PythonEmail.parse(stored)
        #expect(parsed.parts.last?.sha256 == (try sha256(of: attachment)))

        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let flags = ["--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"]
        let flush = try Run.share(["outbox", "flush"] + flags, home: home)
        #expect(flush.status == 0 && flush.standardOutput.isEmpty, "\(flush)")
        #expect(peer.received.isEmpty, "an interrupted send may have arrived: it is not sent again on its own")

        let retry = try Run.share(["outbox", "retry", id], home: home)
        #expect(retry.status == 0, "\(retry)")
        let second = try Run.share(["outbox", "flush"] + flags, home: home)
        #expect(second.status == 0, "\(second)")
        #expect(peer.received.count == 1)
        #expect(try PythonEmail.parse(#require(peer.received.first)).parts.last?.sha256 == (try sha256(of: attachment)))
        #expect(home.outboxFiles("sending").isEmpty && home.outboxFiles("new").isEmpty)
    }

    @Test("via=mailto hands the message to the desktop's mail program as an RFC 6068 mailto: URL")
    func mailtoHandOff() throws {
        let home = try TestHome()
        let received = try SchemeRecorder.install(in: home, scheme: "mailto")
        let run = try Run.share(
            ["--activity", "mail", "--set", "via=mailto", "--to", "ana@example.com", "--set", "cc=bo@example.com",
             "--subject", "Grüße & more", "--text", "line 1\nline 2"],
            home: home)
        #expect(run.status == 0, "\(run)")
        let url = try #require(SchemeRecorder.received(received))
        // Python's urllib reads it back independently.
        let script = """
            import sys, urllib.parse
            u = urllib.parse.urlsplit(sys.argv[1]); q = urllib.parse.parse_qs(u.query)
            print(u.scheme, u.path, q['cc'][0], q['subject'][0], repr(q['body'][0]), sep='|', end='')
            """
        let parsed = try Command.run(SMTPPeer.python, ["-c", script, url]).standardOutput
        #expect(parsed == "mailto|ana@example.com|bo@example.com|Grüße & more|'line 1\\r\\nline 2'", "\(url)")
        #expect(home.outboxFiles("new").isEmpty)
    }

    @Test("a writer's leftovers in tmp/ are never listed, and are removed after 36 hours")
    func staleTemporaries() throws {
        let home = try TestHome()
        let tmp = home.outbox.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let old = tmp.appendingPathComponent("1.M1P1.dead")
        let fresh = tmp.appendingPathComponent("2.M2P2.writing")
        try Data("From: half".utf8).write(to: old)
        try Data("From: half".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-37 * 3600)], ofItemAtPath: old.path)
        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.status == 0 && list.standardOutput == "The outbox is empty.\n", "\(list)")
        #expect(home.outboxFiles("tmp") == ["2.M2P2.writing"])
    }

    @Test("AUTH with the password from the Secret Service: gnome-keyring on the test's own session bus")
    func secretServicePassword() throws {
        let home = try TestHome()
        let certificates = try TestCertificates(in: home.folder)
        let password = "kéyring pässword"
        let peer = try SMTPPeer(options: .init(tls: (certificates.certificate, certificates.key), login: ("ana", password)), in: home.folder)
        defer { peer.stop() }
        try home.configure(
            "[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\ncafile=\(certificates.ca.path)\nuser=ana\nfrom=ana@example.org\n")
        let binary = try #require(Share.url)
        let script = """
            printf unlock | gnome-keyring-daemon --unlock --components=secrets >/dev/null &&
            printf '%s' "$1" | secret-tool store --label='ShareSheet SMTP' application org.sharesheet service smtp server 127.0.0.1 user ana &&
            exec "$2" --activity mail --to bo@example.com --subject keyring --text hi
            """
        // Children inherit SIGTERM blocked from the test's threads: unblock it, so that
        // dbus-run-session can stop its dbus-daemon (and gnome-keyring-daemon follows the bus).
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        let run = try Command.run(
            SMTPPeer.python,
            ["-c", unblock, "/usr/bin/dbus-run-session", "--", "/bin/sh", "-c", script, "sh", password, binary.path],
            environment: home.environment, in: home.folder)
        #expect(run.status == 0, "\(run)")
        #expect(peer.received.count == 1)
        #expect(try PythonEmail.parse(#require(peer.received.first)).subject == "keyring")
    }

    @Test("a login without any password fails with 69 and keeps the message")
    func noPassword() throws {
        let home = try TestHome()
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(peer.port)\nstarttls=off\nuser=ana\n")
        let run = try Run.share(["--activity", "mail", "--to", "bo@example.com", "--text", "hi"], home: home)
        #expect(run.status == 69, "\(run)")
        #expect(run.standardError.contains("no password for ana"), "\(run)")
        #expect(home.outboxFiles("new").count == 1)
        #expect(peer.received.isEmpty)
    }
}
