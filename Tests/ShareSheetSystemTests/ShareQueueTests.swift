import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@Suite("ShareQueue")
struct ShareQueueTests {
    private func share(_ title: String = "Desk Laptop") -> QueuedShare {
        QueuedShare(
            kind: .airDrop, activity: "com.apple.UIKit.activity.AirDrop", target: "ABC123", targetTitle: title,
            reason: "\(title) was not nearby.", waitsFor: .device(fingerprint: "ABC123", alias: title), items: [])
    }

    @Test("a queued share holds copies of its items, and the original can change without changing them")
    func queuesCopies() throws {
        let folder = try TemporaryFolder.make("queue")
        defer { TemporaryFolder(existing: folder).remove() }
        let original = folder.appendingPathComponent("a b;c.png")
        try Data("picture".utf8).write(to: original)
        let queue = ShareQueue(folder: folder.appendingPathComponent("Queue"))
        let entry = try queue.add(
            share(), sources: [.file(original, mimeType: "image/png"), .data(Data("x".utf8), name: "a b;c.png"), .text("hello")])
        try Data("changed".utf8).write(to: original)
        let listed = queue.entries()
        #expect(listed.map(\.share.id) == [entry.share.id])
        #expect(listed[0].state == .queued)
        #expect(listed[0].share.items.map(\.file) == ["a b;c.png", "a b;c 2.png", nil])
        #expect(listed[0].share.items[2].text == "hello")
        let stored = try #require(listed[0].url(of: listed[0].share.items[0]))
        #expect(try Data(contentsOf: stored) == Data("picture".utf8))
        #expect(listed[0].size == 8)
    }

    @Test("a claimed share is sending; its sender gone, it is interrupted and goes again only by retry, marked")
    func claimAndInterrupt() throws {
        let folder = try TemporaryFolder.make("queue")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        let id = try queue.add(share(), sources: [.text("hi")]).share.id
        var claim = try queue.claim(id)
        #expect(claim != nil)
        #expect(try queue.claim(id) == nil)
        #expect(queue.entries().first?.state == .sending)
        #expect(queue.entries().first?.share.attempts == 1)
        #expect(throws: ShareError.self) { try queue.remove(id) }
        claim = nil  // the sender dies: its lock goes with it
        #expect(queue.entries().first?.state == .interrupted)
        #expect(try queue.claim(id) == nil)
        try queue.retry(id)
        let again = try queue.entry(id)
        #expect(again.state == .queued)
        #expect(again.share.mayArriveTwice)
        try queue.remove(id)
        #expect(queue.entries().isEmpty)
        #expect(throws: ShareError.self) { try queue.entry(id) }
    }

    @Test("a flush sends each entry once; a failure keeps it queued with the error; a decline ends it")
    func flush() throws {
        let folder = try TemporaryFolder.make("queue")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        let sent = try queue.add(share("Sent"), sources: [.text("a")]).share.id
        let failing = try queue.add(share("Failing"), sources: [.text("b")]).share.id
        let declined = try queue.add(share("Declined"), sources: [.text("c")]).share.id
        let sender = RecordingSender()
        let outcomes = QueueFlush(queue: queue, senders: [sender]).run()
        #expect(sender.seen.withLock { $0 } == [sent, failing, declined])
        #expect(outcomes.map(\.share.id) == [sent, failing, declined])
        #expect(outcomes[0].error == nil && !outcomes[0].declined)
        #expect(outcomes[1].error?.kind == .temporaryFailure)
        #expect(outcomes[2].declined)
        let left = queue.entries()
        #expect(left.map(\.share.id) == [failing])
        #expect(left[0].state == .queued)
        #expect(left[0].share.lastError == "Failing is not nearby")
        #expect(left[0].share.attempts == 1)
    }

    @Test("what a killed writer left while queueing is removed by the next queueing; a running writer's stays")
    func abandonedEntries() throws {
        let folder = try TemporaryFolder.make("queue")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        let tmp = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let dead = tmp.appendingPathComponent("q1-\(try Command.deadPID())-1")
        let alive = tmp.appendingPathComponent("q1-\(getpid())-2")
        for half in [dead, alive] {
            try FileManager.default.createDirectory(at: half.appendingPathComponent("items"), withIntermediateDirectories: true)
        }
        try queue.add(share(), sources: [.text("x")])
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        #expect(queue.entries().count == 1)
    }
}

/// Sends by name: "Failing" fails, "Declined" declines, the rest arrive.
private final class RecordingSender: QueueSender {
    let kind = QueuedShare.Kind.airDrop
    let seen = Locked<[String]>([])
    func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult {
        seen.withLock { $0.append(entry.share.id) }
        switch entry.share.targetTitle {
        case "Failing": throw ShareError(.temporaryFailure, "Failing is not nearby")
        case "Declined": return .declined
        default: return .delivered
        }
    }
}
