import Foundation

/// An activity whose running work can be set aside instead of thrown away when the person
/// interrupts it (Ctrl-C in the command, Cancel in the window, `Close` on the bus): a mail that
/// is being sent stays in the outbox; files that already reached a device are said, not lost.
///
/// Dismissing the sheet still cancels (`cancel()`: stop and leave nothing half-done). A share
/// session that is being interrupted calls `keepWorkWhenCancelled()` first, then dismisses, then
/// asks `keptWork()` what to tell the person.
@MainActor
public protocol InterruptibleActivity: AnyObject {
    /// Makes the cancel that follows keep what is finished, or can be finished later.
    func keepWorkWhenCancelled()

    /// Waits until the running work has stopped; returns what was kept and where, or nil when
    /// nothing was (the work had not started, or had ended).
    func keptWork() async -> KeptWork?
}

/// Work an interrupted activity kept: what, where, and how it can be finished. Facts only: each
/// front end words them (the command names its subcommand, the window a button).
public struct KeptWork: Sendable, Equatable {
    /// How the kept work can be finished later.
    public enum Resume: String, Sendable, Equatable {
        /// It waits in the outbox and is sent when the outbox is flushed.
        case outbox
    }

    /// What was kept, as a noun phrase: "the message", "1 of 2 files".
    public var what: String
    /// Where it is: a path, or the device that has it.
    public var location: String
    /// How it is finished, when it is not finished already.
    public var resume: Resume?

    /// Says that `what` is kept at `location`, and how it is finished when `resume` is given.
    public init(what: String, location: String, resume: Resume? = nil) {
        self.what = what
        self.location = location
        self.resume = resume
    }
}
