import Foundation
import ShareSheet

/// The few seconds a message waits in the outbox before it is sent, and what ends them: the
/// deadline, the person (Undo, Send Now) or a cancel, whichever comes first.
///
/// Shared by the send's task, which waits, and the main actor, where the person decides; the
/// first end wins, so an Undo pressed as the deadline passes either takes the message back or
/// is refused, never both.
final class MailHold: Sendable {
    /// What ended the wait.
    enum End: Sendable, Equatable {
        /// The seconds passed: send.
        case deadline
        /// The person asked to send at once.
        case sendNow
        /// The person took the message back: it is never sent.
        case undo
        /// The share was cancelled (dismissed, or interrupted keeping its work).
        case cancel
    }

    private let state = Locked<(end: End?, waiter: CheckedContinuation<End, Never>?)>((nil, nil))

    /// True when the person took the message back (`undo` ended the wait).
    var wasUndone: Bool { state.withLock { $0.end == .undo } }

    /// Ends the wait with `end`.
    /// - Returns: false when it had ended already (the first end wins).
    @discardableResult
    func end(_ end: End) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<End, Never>?) in
            guard state.end == nil else { return (false, nil) }
            state.end = end
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: end)
        return won
    }

    /// Waits until `deadline`, or an earlier `end(_:)`, and says which ended it.
    func wait(until deadline: Date) async -> End {
        let timer = Task { [self] in
            let seconds = deadline.timeIntervalSinceNow
            if seconds > 0 { try? await Task.sleep(for: .milliseconds(Int(seconds * 1000))) }
            end(.deadline)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> End? in
                if let end = state.end { return end }
                state.waiter = continuation
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }
}
