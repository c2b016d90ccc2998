import Foundation
import ShareSheet

/// Sends queued shares by itself when they can go (SPEC §14), while a long-running process (the
/// share service) runs: each entry when its condition comes true (its device shows up in
/// discovery, the network comes back, its share target's bus name gets an owner), and every
/// entry now and then as a safety net.
///
/// Exactly once: every send goes through `QueueFlush.send(_:)` (claim, send, finish or put
/// back), one entry at a time, so this process never sends an entry twice at once and another
/// process cannot take one it holds. Interrupted entries are in `sending/`, which a flush never
/// claims: one goes again only when a person asks (`share outbox retry`).
///
/// It looks at the queue every `pollInterval` (a folder listing and a few small JSON files), so
/// an entry queued by any process is seen within that. After a failed attempt an entry waits
/// (twice as long each time, up to `retryInterval`) unless its condition comes true again; one
/// whose sender said only a person can send it is left alone.
@MainActor
public final class QueueWatcher {
    private let flush: QueueFlush
    private let watches: [any QueueConditionWatch]
    private let pollInterval: Duration
    private let retryInterval: TimeInterval
    private let firstBackoff: TimeInterval
    private let log: (String) -> Void
    private var tracked: [String: Tracked] = [:]
    private var sendingID: String?
    private var loop: Task<Void, Never>?

    /// What the watcher knows of one queued entry between rounds.
    private struct Tracked {
        var share: QueuedShare
        /// Whether its condition held at the last round: a change to true is "it came back".
        var held = false
        /// Not before this, unless its condition comes true again.
        var nextTry: Date
        /// The safety net: tried at the latest then, whatever its condition says.
        var retryAt: Date
        var failures = 0
        /// Only a person can send it now.
        var waitsForPerson = false
    }

    /// Makes a watcher; nothing happens before `start()`.
    /// - Parameters:
    ///   - flush: the queue and the senders of each kind; entries of other kinds are left alone.
    ///   - watches: what tells when each kind of condition holds.
    ///   - pollInterval: how often the queue is looked at.
    ///   - retryInterval: the safety net: an entry is tried at least this often (seconds).
    ///   - firstBackoff: the wait after a first failed attempt, doubled after each (seconds).
    ///   - log: says a line about what was sent or kept (the service's standard error).
    public init(
        flush: QueueFlush, watches: [any QueueConditionWatch], pollInterval: Duration = .seconds(1),
        retryInterval: TimeInterval = 300, firstBackoff: TimeInterval = 5, log: @escaping (String) -> Void = { _ in }
    ) {
        self.flush = flush
        self.watches = watches
        self.pollInterval = pollInterval
        self.retryInterval = retryInterval
        self.firstBackoff = firstBackoff
        self.log = log
    }

    /// True while an entry waits that this watcher may still send by itself (or one is being
    /// sent): what keeps the service from its idle exit.
    public var isWaiting: Bool { sendingID != nil || tracked.values.contains { !$0.waitsForPerson } }

    /// True while an entry is being sent: ending the process now would leave it interrupted.
    public var isSending: Bool { sendingID != nil }

    /// Since when `isWaiting` has been true without a break; nil while it is false.
    public private(set) var waitingSince: ContinuousClock.Instant?

    private func noteWaiting() {
        if !isWaiting {
            waitingSince = nil
        } else if waitingSince == nil {
            waitingSince = .now
        }
    }

    /// Starts looking at the queue.
    public func start() {
        guard loop == nil else { return }
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                self.round()
                try? await Task.sleep(for: self.pollInterval)
            }
        }
    }

    /// Stops looking and watching; a send under way finishes (or is put back) by itself.
    public func stop() {
        loop?.cancel()
        loop = nil
        for watch in watches { watch.stop() }
    }

    // MARK: Rounds

    /// One look at the queue: follow what waits, and send the first entry that is due.
    private func round() {
        let now = Date()
        let queued = flush.queue.entries().filter { $0.state == .queued && flush.senders[$0.share.kind] != nil }
        var seen: [String: Tracked] = [:]
        // The entry being sent is in `sending/` meanwhile: keep what is known of it.
        if let sendingID, let sending = tracked[sendingID] { seen[sendingID] = sending }
        for entry in queued {
            let id = entry.share.id
            if var known = tracked[id] {
                // Its reason changed elsewhere (tried by hand, say): no longer only for a person.
                if known.waitsForPerson, known.share.reason != entry.share.reason { known.waitsForPerson = false }
                known.share = entry.share
                seen[id] = known
            } else {
                seen[id] = Tracked(share: entry.share, nextTry: now, retryAt: now.addingTimeInterval(retryInterval))
            }
        }
        tracked = seen
        for watch in watches {
            watch.follow(tracked.values.filter { !$0.waitsForPerson && watch.watches($0.share.waitsFor) }.map(\.share.waitsFor))
        }
        var due: String?
        for id in tracked.keys.sorted(by: { tracked[$0]!.share.created < tracked[$1]!.share.created }) {
            guard id != sendingID, var entry = tracked[id], !entry.waitsForPerson else { continue }
            let holds = watches.first { $0.watches(entry.share.waitsFor) }?.holds(entry.share.waitsFor) ?? false
            if holds, !entry.held { entry.nextTry = now }
            entry.held = holds
            tracked[id] = entry
            if due == nil, (holds && now >= entry.nextTry) || now >= entry.retryAt { due = id }
        }
        if let due, sendingID == nil { send(due) }
        noteWaiting()
    }

    /// Sends `id` off the main actor, then notes how it went.
    private func send(_ id: String) {
        sendingID = id
        let flush = self.flush
        Task { [weak self] in
            let outcome = await Task.detached { flush.send(id) }.value
            self?.sent(id, outcome)
        }
    }

    private func sent(_ id: String, _ outcome: QueueFlush.Outcome?) {
        sendingID = nil
        defer { noteWaiting() }
        guard let outcome else {
            // Not queued any more (sent or removed elsewhere) or taken by another process.
            tracked[id] = nil
            return
        }
        if outcome.error == nil {
            tracked[id] = nil
            log(outcome.declined ? "queue: \(id) was declined by \(outcome.share.targetTitle)" : "queue: sent \(id) to \(outcome.share.targetTitle)")
            return
        }
        guard var entry = tracked[id] else { return }
        let now = Date()
        entry.failures += 1
        entry.nextTry = now.addingTimeInterval(min(retryInterval, firstBackoff * pow(2, Double(entry.failures - 1))))
        entry.retryAt = now.addingTimeInterval(retryInterval)
        entry.waitsForPerson = outcome.waitsForPerson
        entry.share = outcome.share
        tracked[id] = entry
        log("queue: kept \(id): \(outcome.error?.message ?? "")")
    }
}
