import Foundation
import LocalTestSupport
import Testing

/// The outbox after a kill, a missing `sending/` and flushes that run at once (#15), run as a
/// person would: the built binary in a temporary HOME, against aiosmtpd on loopback.
@Suite("share outbox: leftovers, a missing sending/, concurrent flushes")
struct OutboxHardeningTests {
    /// Queues a message without a server; returns its id.
    static func queue(_ subject: String, home: TestHome) throws -> String {
        let before = Set(home.outboxFiles("new"))
        let run = try Run.share(["--activity", "mail", "--to", "bob@example.com", "--subject", subject, "--text", "body"], home: home)
        #expect(run.status == 75, "queued: \(run)")
        return try #require(Set(home.outboxFiles("new")).subtracting(before).first)
    }

    @Test("a dead writer's file in tmp/ goes at the next outbox operation; a running writer's stays")
    func deadWriterTemporary() throws {
        let home = try TestHome()
        // The host part of a name this machine's share writes.
        let id = try Self.queue("host", home: home)
        let parts = id.split(separator: ".", maxSplits: 2)
        try #require(parts.count == 3, "\(id)")
        let host = String(parts[2])
        let seconds = Int(Date().timeIntervalSince1970)
        let dead = "\(seconds).M1P\(try Command.deadPID())R1.\(host)"
        let alive = "\(seconds).M2P\(getpid())R2.\(host)"
        let tmp = home.outbox.appendingPathComponent("tmp")
        for name in [dead, alive] { try Data("From: half".utf8).write(to: tmp.appendingPathComponent(name)) }

        let list = try Run.share(["outbox", "list"], home: home)
        #expect(list.status == 0, "\(list)")
        #expect(home.outboxFiles("tmp") == [alive], "the dead writer's file is gone, the running one's kept")
        #expect(home.outboxFiles("new") == [id])
    }

    @Test("flush makes sending/ when it is missing and delivers")
    func missingSendingFolder() throws {
        let home = try TestHome()
        let id = try Self.queue("no sending folder", home: home)
        try FileManager.default.removeItem(at: home.outbox.appendingPathComponent("sending"))
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let flush = try Run.share(["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"], home: home)
        #expect(flush.status == 0, "\(flush)")
        #expect(flush.standardOutput == "sent \(id)\n", "\(flush)")
        #expect(peer.received.count == 1)
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
    }

    @Test("three flushes at once deliver every message exactly once and all exit 0")
    func concurrentFlushes() throws {
        let home = try TestHome()
        var ids: [String] = []
        for index in 1...12 { ids.append(try Self.queue("message \(index)", home: home)) }
        let peer = try SMTPPeer(in: home.folder)
        defer { peer.stop() }
        let binary = try #require(Share.url)
        let started = try (1...3).map { _ in
            try Command.start(
                binary.path, ["outbox", "flush", "--set", "smtp=smtp://127.0.0.1:\(peer.port)", "--set", "starttls=off"],
                environment: home.environment, in: home.folder)
        }
        var sent: [String] = []
        for process in started {
            let result = process.finish(timeout: 120)
            #expect(result.status == 0, "\(result)")
            sent += result.standardOutput.split(separator: "\n").map { String($0.dropFirst("sent ".count)) }
        }
        #expect(sent.sorted() == ids.sorted(), "each message is reported sent by exactly one flush")
        #expect(peer.received.count == ids.count, "each message reached the server once")
        #expect(home.outboxFiles("new").isEmpty && home.outboxFiles("sending").isEmpty)
    }
}
