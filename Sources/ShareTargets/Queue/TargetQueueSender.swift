import Foundation
import ShareSheet
import ShareSheetSystem

/// Sends queued shares to D-Bus share targets (kind `share-target`): the same `Share` call the
/// activity makes, files handed over as descriptors of the entry's copies.
///
/// A target that is still not running keeps the entry queued (a `temporaryFailure`); a target
/// that answers with its own error message, or says it did not complete, declined it, and it
/// leaves the queue, as a refusal during the share would have ended it.
public struct TargetQueueSender: QueueSender {
    public var kind: QueuedShare.Kind { .shareTarget }
    /// The host whose session bus and `[targets] timeout=` are used.
    let environment: HostEnvironment

    /// A sender for the session bus and settings of `environment`.
    public init(environment: HostEnvironment) {
        self.environment = environment
    }

    public func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult {
        if isCancelled() { throw ShareError(.cancelled, "\(entry.share.targetTitle): cancelled") }
        let call = try TargetQueueing.call(
            for: entry, timeout: TargetSettings(environment: environment).timeout,
            busAddress: environment["DBUS_SESSION_BUS_ADDRESS"], temporaryFolder: environment["TMPDIR"] ?? "/tmp")
        let reply: TargetReply
        do {
            reply = try call.perform(cancellable: TargetCancellation())
        } catch let notRunning as TargetNotRunning {
            throw notRunning.error
        }
        // Its own "no" (an error message, or not completed) is the target's answer: sending it
        // again would ask the same question.
        let completed = reply.completed ?? (reply.disposition != "cancelled" && reply.disposition != "failed")
        return reply.errorMessage == nil && completed ? .delivered : .declined
    }
}
