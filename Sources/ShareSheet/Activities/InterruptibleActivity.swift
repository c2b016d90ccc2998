import Foundation

/// An activity whose running work can be set aside instead of thrown away when the person
/// interrupts it (Ctrl-C in the command): a mail that is being sent stays in the outbox.
///
/// Dismissing the sheet still cancels (`cancel()`: stop and leave nothing behind). A front end
/// that is being interrupted calls `keepWorkWhenCancelled()` first, then dismisses, then asks
/// `keptWork()` what to tell the person.
@MainActor
public protocol InterruptibleActivity: AnyObject {
    /// Makes the cancel that follows keep what can be finished later.
    func keepWorkWhenCancelled()

    /// Waits until the running work has stopped; returns where it is and how to finish it, or
    /// nil when nothing was kept (the work had not started, or had ended).
    func keptWork() async -> KeptWork?
}

/// Work an interrupted activity kept: where it is and how to finish it.
public struct KeptWork: Sendable, Equatable {
    /// What was kept, in words: "the message".
    public var what: String
    /// Where it is: a path.
    public var location: String
    /// The command that finishes it: "share outbox flush".
    public var resume: String

    /// Says that `what` is kept at `location` and that `resume` finishes it.
    public init(what: String, location: String, resume: String) {
        self.what = what
        self.location = location
        self.resume = resume
    }
}
