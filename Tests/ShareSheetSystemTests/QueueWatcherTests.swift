import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

/// The kind the fake sender takes.
private let testKind = QueuedShare.Kind("test")

/// The queue watcher's rules, with a sender and a condition of our own: an entry goes when its
/// condition comes true, once; one send at a time; an interrupted entry is never sent by
/// itself; a failure waits before the next try; one only a person can send is left alone.
@Suite("QueueWatcher", .serialized)
@MainActor
struct QueueWatcherTests {
    /// What the fake sender does with each entry, and what it saw.
    final class Sender: QueueSender, @unchecked Sendable {
        enum Behaviour { case deliver, fail, needsPerson }
        let kind = testKind
        private let state = Locked((sent: [String](), running: 0, mostAtOnce: 0))
        let behaviour: @Sendable (QueuedShare) -> Behaviour
        let duration: Double

        init(duration: Double = 0, behaviour: @escaping @Sendable (QueuedShare) -> Behaviour = { _ in .deliver }) {
            self.duration = duration
            self.behaviour = behaviour
        }

        var sent: [String] { state.withLock { $0.sent } }
        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

        func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult {
            state.withLock {
                $0.sent.append(entry.share.targetTitle)
                $0.running += 1
                $0.mostAtOnce = max($0.mostAtOnce, $0.running)
            }
            defer { state.withLock { $0.running -= 1 } }
            if duration > 0 { Thread.sleep(forTimeInterval: duration) }
            switch behaviour(entry.share) {
            case .deliver: return .delivered
            case .fail: throw ShareError(.temporaryFailure, "not yet")
            case .needsPerson:
                throw QueueWaitsForPerson(reason: "asks for a PIN", error: ShareError(.usage, "asks for a PIN", field: "pin"))
            }
        }
    }

    /// `.network` conditions that hold when the test says so.
    final class Condition: QueueConditionWatch {
        var holdsNow = false
        private(set) var followed: [QueuedShare.Condition] = []
        func watches(_ condition: QueuedShare.Condition) -> Bool { condition == .network }
        func follow(_ conditions: [QueuedShare.Condition]) { followed = conditions }
        func holds(_ condition: QueuedShare.Condition) -> Bool { holdsNow }
        func stop() { followed = [] }
    }

    private static func add(_ title: String, to queue: ShareQueue) throws -> String {
        let share = QueuedShare(
            kind: testKind, activity: "test", target: title, targetTitle: title, reason: "offline", waitsFor: .network, items: [])
        return try queue.add(share, sources: [.text(title)]).share.id
    }

    private static func watcher(_ queue: ShareQueue, _ sender: Sender, _ condition: Condition, firstBackoff: Double = 5) -> QueueWatcher {
        QueueWatcher(
            flush: QueueFlush(queue: queue, senders: [sender]), watches: [condition], pollInterval: .milliseconds(20),
            retryInterval: 600, firstBackoff: firstBackoff)
    }

    /// Waits until `done` or `seconds` pass, letting the watcher run.
    private static func wait(_ seconds: Double, until done: () -> Bool = { false }) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !done(), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test("an entry waits while its condition does not hold, goes once when it does, and leaves the queue")
    func goesWhenTheConditionHolds() async throws {
        let folder = try TemporaryFolder.make("queue-watcher")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        _ = try Self.add("Ana", to: queue)
        let sender = Sender()
        let condition = Condition()
        let watcher = Self.watcher(queue, sender, condition)
        watcher.start()
        defer { watcher.stop() }
        try await Self.wait(0.5)
        #expect(sender.sent.isEmpty)
        #expect(condition.followed == [.network])
        #expect(watcher.isWaiting)
        condition.holdsNow = true
        try await Self.wait(5) { !sender.sent.isEmpty }
        try await Self.wait(0.5)
        #expect(sender.sent == ["Ana"])
        #expect(queue.entries().isEmpty)
        #expect(!watcher.isWaiting)
        #expect(condition.followed.isEmpty, "nothing waits: nothing is watched")
    }

    @Test("several entries go one at a time; an interrupted one is left as it is")
    func oneAtATimeAndNeverTheInterrupted() async throws {
        let folder = try TemporaryFolder.make("queue-watcher")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        for title in ["A", "B", "C"] { _ = try Self.add(title, to: queue) }
        // Claimed, then its sender gone (the lock closes with the claim): interrupted.
        let interrupted = try Self.add("Interrupted", to: queue)
        _ = try queue.claim(interrupted)
        #expect(queue.entries().first { $0.share.id == interrupted }?.state == .interrupted)
        let sender = Sender(duration: 0.2)
        let condition = Condition()
        condition.holdsNow = true
        let watcher = Self.watcher(queue, sender, condition)
        watcher.start()
        defer { watcher.stop() }
        try await Self.wait(10) { sender.sent.count >= 3 }
        try await Self.wait(0.5)
        #expect(sender.sent == ["A", "B", "C"])
        #expect(sender.mostAtOnce == 1)
        #expect(queue.entries().map(\.share.id) == [interrupted])
        #expect(queue.entries().first?.state == .interrupted)
    }

    @Test("a failed entry waits before the next try; one only a person can send is tried once and keeps nothing up")
    func backoffAndPerson() async throws {
        let folder = try TemporaryFolder.make("queue-watcher")
        defer { TemporaryFolder(existing: folder).remove() }
        let queue = ShareQueue(folder: folder)
        _ = try Self.add("Failing", to: queue)
        let person = try Self.add("Person", to: queue)
        let sender = Sender { $0.targetTitle == "Failing" ? .fail : .needsPerson }
        let condition = Condition()
        condition.holdsNow = true
        // 0.4 s after the first failure, 0.8 s after the second, 1.6 s after the third.
        let watcher = Self.watcher(queue, sender, condition, firstBackoff: 0.4)
        watcher.start()
        defer { watcher.stop() }
        try await Self.wait(1.5)
        let failing = sender.sent.filter { $0 == "Failing" }.count
        // Tried again after 0.4 s and 0.8 s, not on every round of 20 ms.
        #expect((1...4).contains(failing), "\(sender.sent)")
        #expect(sender.sent.filter { $0 == "Person" }.count == 1, "\(sender.sent)")
        let stored = try queue.entry(person)
        #expect(stored.state == .queued && stored.share.reason == "asks for a PIN" && stored.share.lastError == "asks for a PIN")
        #expect(watcher.isWaiting, "the failing entry still waits")
        let failingID = try #require(queue.entries().first { $0.share.targetTitle == "Failing" }).share.id
        // Not while it is being sent (a moment): removing it then is refused.
        try await Self.wait(2) { (try? queue.remove(failingID)) != nil }
        #expect(!queue.entries().contains { $0.share.id == failingID })
        try await Self.wait(2) { !watcher.isWaiting }
        #expect(!watcher.isWaiting, "only a share for a person is left: nothing keeps the service up")
    }
}
