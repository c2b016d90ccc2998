// Ctrl-C during a send (#14): the message stays in the outbox, and the command says where it is
// and how to send it.
import Foundation
import LocalTestSupport
import Testing

@Suite("Mail: Ctrl-C during a send keeps the message")
struct InterruptedSendTests {
    @Test("SIGINT while the server holds DATA: exit 130, the message queued in new/, its path and `share outbox flush` said; the flush then sends it")
    func interruptKeepsTheMessage() throws {
        let home = try TestHome()
        // Takes the message's first bytes, then stops reading: the upload is stuck midway.
        let stalled = try SMTPPeer(options: .init(stallInData: true), in: home.folder)
        defer { stalled.stop() }
        try home.configure("[mail]\nsmtp=smtp://127.0.0.1:\(stalled.port)\nstarttls=off\nfrom=ana@example.org\n")
        // Larger than what the loopback socket buffers hold.
        let big = try home.randomFile("big.bin", size: 48 * 1024 * 1024)
        let (ended, said) = try Self.interrupt(
            ["--activity", "mail", "--to", "bob@example.com", "--subject", "kept", big.path], home: home, peer: stalled)
        #expect(ended?.status == 130 && ended?.signal == 0, "\(String(describing: ended)): \(said)")

        // Back in the queue, whole, and nothing reached the server.
        let queued = home.outboxFiles("new")
        #expect(queued.count == 1 && home.outboxFiles("sending").isEmpty && home.outboxFiles("tmp").isEmpty)
        #expect(stalled.received.isEmpty)
        let id = try #require(queued.first)
        let path = home.outbox.appendingPathComponent("new").appendingPathComponent(id).path
        #expect(
            said.contains("share: interrupted: the message is kept at \(path); finish it with `share outbox flush`"), "\(said)")

        // The command it names sends it.
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let flushed = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)"], home: home)
        #expect(flushed.status == 0, "\(flushed)")
        #expect(flushed.standardOutput == "sent \(id)\n")
        #expect(peer.received.count == 1)
        #expect(try PythonEmail.parse(#require(peer.received.first)).subject == "kept")
        #expect(home.outboxFiles("new").isEmpty)
    }

    /// Starts `share arguments`, waits until `peer` is in DATA (the message in `sending/`),
    /// sends SIGINT and waits for the end: its status and what it said on standard error.
    /// Synchronous on purpose: it polls with Thread.sleep on the thread it holds, so other
    /// suites' blocking work cannot keep it from noticing DATA until the server's 60 s limit.
    static func interrupt(_ arguments: [String], home: TestHome, peer: SMTPPeer) throws -> ((status: Int32, signal: Int32)?, String) {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        let errors = home.folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        let errorDescriptor = open(errors.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        let pid = try Spawn.start(
            binary.path, arguments, environment: home.environment, directory: home.folder.path, input: null, output: null,
            error: errorDescriptor)
        close(errorDescriptor)
        close(null)
        let deadline = Date().addingTimeInterval(60)
        while !peer.dataStarted, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(peer.dataStarted)
        #expect(home.outboxFiles("sending").count == 1)
        kill(pid, SIGINT)
        var ended: (status: Int32, signal: Int32)?
        let limit = Date().addingTimeInterval(60)
        while ended == nil, Date() < limit {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG spelled out (the C macros are not imported).
                ended = status & 0x7F == 0 ? ((status >> 8) & 0xFF, 0) : (0, status & 0x7F)
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        if ended == nil {
            Issue.record("share did not end within 60 s of SIGINT")
            kill(pid, SIGKILL)
            ended = Spawn.waitBlocking(pid)
        }
        return (ended, try String(contentsOf: errors, encoding: .utf8))
    }

    @Test("SIGINT during outbox flush: exit 130, the message back in new/, the folder and `share outbox flush` said")
    func interruptedFlush() throws {
        let home = try TestHome()
        let big = try home.randomFile("big.bin", size: 48 * 1024 * 1024)
        let queued = try Run.share(["--activity", "mail", "--to", "bob@example.com", big.path], home: home)
        #expect(queued.status == 75, "\(queued)")  // no server: queued
        let id = try #require(home.outboxFiles("new").first)
        let stalled = try SMTPPeer(options: .init(stallInData: true), in: home.folder)
        defer { stalled.stop() }
        let (ended, said) = try Self.interrupt(
            ["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(stalled.port)", "--set", "starttls=off"], home: home, peer: stalled)
        #expect(ended?.status == 130 && ended?.signal == 0, "\(String(describing: ended)): \(said)")
        #expect(home.outboxFiles("new") == [id] && home.outboxFiles("sending").isEmpty)
        #expect(stalled.received.isEmpty)
        let folder = home.outbox.appendingPathComponent("new").path
        #expect(said == "share: interrupted: the unsent mail stays in the outbox at \(folder); send it with `share outbox flush`\n", "\(said)")
    }
}
