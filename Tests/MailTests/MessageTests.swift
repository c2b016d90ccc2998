import Foundation
import LocalTestSupport
import Mail
import Testing

/// `share --activity message`: the `sms:` URL (RFC 5724) reaching the desktop's registered
/// handler, here a recorder application declared in a temporary XDG_DATA_HOME.
@Suite("Message: sms: hand-off and the Messages outbox")
struct MessageTests {
    /// The URL RFC 5724 prescribes, built by Python's urllib (independent of the code under test).
    func expectedURL(numbers: [String], body: String) throws -> String {
        let script = "import sys, urllib.parse; print('sms:' + sys.argv[1] + '?body=' + urllib.parse.quote(sys.argv[2], safe=''), end='')"
        return try Command.run(SMTPPeer.python, ["-c", script, numbers.joined(separator: ","), body]).standardOutput
    }

    @Test("recipients and body reach the registered sms: handler exactly as RFC 5724 writes them")
    func handOff() throws {
        let home = try TestHome()
        let received = try SchemeRecorder.install(in: home, scheme: "sms")
        let body = "Hi there & welcome? 100% sure, ünïcode 👋\nsecond line #1 /x=y+z"
        let run = try Run.share(
            ["--activity", "message", "--to", "+1 (555) 123-4567, +44 20 7946 0958", "--text", body], home: home)
        #expect(run.status == 0, "\(run)")
        let url = try #require(SchemeRecorder.received(received), "the handler was not launched: \(run)")
        #expect(url == (try expectedURL(numbers: ["+15551234567", "+442079460958"], body: body)))
        #expect(run.standardOutput.trimmingCharacters(in: .newlines) == url)
    }

    @Test("an sms: item sets the recipients (and its body joins the text)")
    func smsItem() throws {
        let home = try TestHome()
        let received = try SchemeRecorder.install(in: home, scheme: "sms")
        let run = try Run.share(["--activity", "message", "sms:+15551234567,+15557654321?body=see%20you", "--text", "at 6"], home: home)
        #expect(run.status == 0, "\(run)")
        let url = try #require(SchemeRecorder.received(received))
        #expect(url == (try expectedURL(numbers: ["+15551234567", "+15557654321"], body: "see you\nat 6")))
    }

    @Test("an invalid number fails with 65 naming it")
    func invalidNumber() throws {
        let home = try TestHome()
        let run = try Run.share(["--activity", "message", "--to", "call me maybe", "--text", "x"], home: home)
        #expect(run.status == 65, "\(run)")
        #expect(run.standardError.contains("call me maybe"))
    }

    @Test("with no handler and no KDE Connect the message waits in the Messages outbox, listed by share outbox")
    func outboxFallback() throws {
        let home = try TestHome()
        let run = try Run.share(["--activity", "message", "--set", "via=outbox", "--to", "+15551234567", "--text", "later"], home: home)
        #expect(run.status == 75, "queued: \(run)")
        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.standardOutput.contains("sms  queued  +15551234567  later"), "\(list)")
        // Once a handler exists, flush hands it over and empties the outbox.
        let received = try SchemeRecorder.install(in: home, scheme: "sms")
        let flush = try Run.share(["outbox", "flush"], home: home)
        #expect(flush.status == 0, "\(flush)")
        #expect(SchemeRecorder.received(received) == "sms:+15551234567?body=later")
        #expect(try Run.share(["outbox", "list"], home: home).standardOutput == "The outbox is empty.\n")
    }

    @Test("the sms: URL of MessageComposer's message, and RFC 5724 parsing back")
    func urlForm() {
        let message = TextMessage(recipients: ["+1-555-000-1111"], body: "a b&c")
        #expect(message.smsURL == "sms:+15550001111?body=a%20b%26c")
        #expect(TextMessage(recipients: ["+15550001111", "5551234"], body: "").smsURL == "sms:+15550001111,5551234")
        #expect(MessageComposer.canSendText())
    }
}
