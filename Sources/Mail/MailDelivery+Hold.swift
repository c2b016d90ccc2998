import Foundation
import ShareSheet

extension MailDelivery {
    /// Delivers as `deliver(_:progress:isCancelled:onQueued:keepsOnCancel:)` does, but holds the
    /// message in the outbox's queue for `seconds` first, so the person can take it back.
    ///
    /// The message is complete in `new/` before the wait starts: a crash or a kill during the
    /// wait leaves it queued, and `share outbox flush` sends it. It is claimed only once the
    /// wait is over, like any queued message, so a flush that runs meanwhile may send it first
    /// (then this send reports it as taken by another process; it is never sent twice).
    /// - Parameters:
    ///   - seconds: how long to hold it; without a server it is only queued, with no wait.
    ///   - hold: ends the wait early: `.sendNow` sends at once, `.undo` removes the message
    ///     unsent, `.cancel` keeps it queued or removes it as `keepsOnCancel` says.
    ///   - onHeld: told when the wait starts (with its deadline) and when it ends (nil).
    /// - Throws: as `deliver`; `ShareError(.cancelled)` after an undo or a cancel during the wait.
    func deliver(
        _ message: MailMessage, holdingFor seconds: Int, hold: MailHold, progress: Progress? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }, onQueued: (URL) -> Void = { _ in },
        onHeld: (Date?) -> Void = { _ in }, keepsOnCancel: @escaping @Sendable () -> Bool = { false }
    ) async throws -> MailResult {
        do { try message.validate() } catch { throw ShareError(.badData, "Mail: \(error)") }
        let queued = try write(message, isCancelled: isCancelled)
        let id = queued.lastPathComponent
        settings.steps?.say("Mail: spooled to \(queued.path)")
        onQueued(queued)
        guard settings.endpoint != nil else { return .queued(id: id, file: queued) }
        settings.steps?.say("Mail: holding \(id) in the outbox for \(seconds) s before sending it")
        let deadline = Date().addingTimeInterval(Double(seconds))
        onHeld(deadline)
        let end = await hold.wait(until: deadline)
        onHeld(nil)
        switch end {
        case .deadline, .sendNow:
            return try send(id: id, progress: progress, isCancelled: isCancelled, removeOnCancel: { !keepsOnCancel() })
        case .undo:
            try takeBack(id)
            settings.steps?.say("Mail: undone; removed \(id) from the outbox")
            throw ShareError(.cancelled, "Mail: not sent: taken back with Undo")
        case .cancel:
            if keepsOnCancel() { throw ShareError(.cancelled, "Mail: cancelled; the message is kept in the outbox as \(id)") }
            try takeBack(id)
            throw ShareError(.cancelled, "Mail: cancelled")
        }
    }

    /// Removes the queued message `id` unsent, unless another process took it for sending first.
    private func takeBack(_ id: String) throws {
        guard let claim = try settings.outbox.claim(id) else {
            throw ShareError(.temporaryFailure, "Mail: \(id) is being sent by another process, too late to take it back")
        }
        settings.outbox.finish(claim)
    }
}
