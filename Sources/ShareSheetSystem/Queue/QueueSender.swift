import Foundation
import ShareSheet

/// What sends the queued shares of one kind: Nearby sends `airdrop` entries, Social `post`,
/// ShareTargets `share-target`. The queue itself knows no backend.
public protocol QueueSender: Sendable {
    /// The kind of entry this sends.
    var kind: QueuedShare.Kind { get }

    /// Sends one claimed entry, blocking until it is delivered or has failed.
    /// - Returns: `.delivered`, or `.declined` when the other side said no (the entry is done).
    /// - Throws: a `ShareError`; the entry then stays queued with the error's message.
    func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult
}

/// Thrown by a sender when the entry cannot go by itself any more, only when a person sends it
/// (a receiver that asks for a PIN, which is never stored): it stays queued with `reason` as
/// why it waits, and queue watchers leave it alone until it is sent by hand.
public struct QueueWaitsForPerson: Error, Sendable {
    /// Why it waits now, as a sentence that says what the person does.
    public var reason: String
    /// What the attempt ran into, kept as the entry's last error.
    public var error: ShareError

    public init(reason: String, error: ShareError) {
        self.reason = reason
        self.error = error
    }
}

/// How a send of a queued share ended when nothing was thrown.
public enum QueueSendResult: Sendable, Equatable {
    case delivered
    /// The receiver refused it: it leaves the queue, unsent.
    case declined
}

/// One pass over the queue: every queued entry (or those `including` picks) is claimed, sent
/// once by its kind's sender, and then finished or put back. Entries of a kind with no sender
/// here, and interrupted ones, are left alone.
public struct QueueFlush: Sendable {
    public let queue: ShareQueue
    public let senders: [QueuedShare.Kind: any QueueSender]

    /// What became of one entry.
    public struct Outcome: Sendable {
        public var share: QueuedShare
        /// Nil when delivered or declined.
        public var error: ShareError?
        public var declined: Bool
        /// True when the sender said only a person can send it now (`QueueWaitsForPerson`).
        public var waitsForPerson = false
    }

    public init(queue: ShareQueue, senders: [any QueueSender]) {
        self.queue = queue
        var byKind: [QueuedShare.Kind: any QueueSender] = [:]
        for sender in senders { byKind[sender.kind] = sender }
        self.senders = byKind
    }

    /// Sends what is queued, one entry after another.
    public func run(
        including: (QueuedShare) -> Bool = { _ in true }, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> [Outcome] {
        var outcomes: [Outcome] = []
        for entry in queue.entries() where entry.state == .queued && including(entry.share) {
            if isCancelled() { break }
            guard senders[entry.share.kind] != nil else { continue }
            if let outcome = send(entry.share.id, isCancelled: isCancelled) { outcomes.append(outcome) }
        }
        return outcomes
    }

    /// Claims and sends the entry `id`; nil when it is not queued (any more) or no sender
    /// takes its kind.
    public func send(_ id: String, isCancelled: @escaping @Sendable () -> Bool = { false }) -> Outcome? {
        let claim: ShareQueue.Claim?
        do {
            claim = try queue.claim(id)
        } catch let error as ShareError {
            return Outcome(share: (try? queue.entry(id).share) ?? QueuedShare.placeholder(id), error: error, declined: false)
        } catch {
            return nil
        }
        guard let claim else { return nil }
        guard let sender = senders[claim.entry.share.kind] else {
            queue.release(claim, error: claim.entry.share.lastError)
            return nil
        }
        do {
            let result = try sender.send(claim.entry, isCancelled: isCancelled)
            queue.finish(claim)
            return Outcome(share: claim.entry.share, error: nil, declined: result == .declined)
        } catch let wait as QueueWaitsForPerson {
            queue.release(claim, reason: wait.reason, error: wait.error.message)
            var share = claim.entry.share
            share.reason = wait.reason
            return Outcome(share: share, error: wait.error, declined: false, waitsForPerson: true)
        } catch {
            let shareError = error as? ShareError ?? ShareError(.ioError, "\(error)")
            queue.release(claim, error: shareError.message)
            return Outcome(share: claim.entry.share, error: shareError, declined: false)
        }
    }
}

extension QueuedShare {
    /// Stands for an entry that could not be read, so an outcome can still name its id.
    static func placeholder(_ id: String) -> QueuedShare {
        var share = QueuedShare(
            kind: Kind("unknown"), activity: "", target: "", targetTitle: id, reason: "", waitsFor: .network, items: [])
        share.id = id
        return share
    }
}
