import Foundation

/// An activity that holds its work back for a few seconds after the person confirmed it, so
/// it can still be taken back: Mail's Undo Send.
///
/// The work is made safe first (Mail writes the message into the outbox) and only then waits,
/// so a crash during the wait leaves it to be finished later, never lost. A presenter that can
/// show an Undo button (`Presenter.offersUndo`) reads `waitingWork` while the activity
/// performs and calls `undo()` or `proceedNow()`; one that cannot simply lets the wait pass.
///
/// Implementations must guarantee: after `undo()` returned true the work never happens, and
/// the activity finishes with `ShareError(.cancelled)` and `wasUndone` true, so a share session
/// can show the activity's form again with what the person gave it.
@MainActor
public protocol UndoableActivity: AnyObject {
    /// The work that waits now and can still be taken back; nil before the wait and after it.
    var waitingWork: WaitingWork? { get }

    /// Takes the waiting work back: it never happens.
    /// - Returns: false when it is too late (the wait is over and the work has started).
    func undo() -> Bool

    /// Ends the wait: the work goes now rather than at the deadline.
    func proceedNow()

    /// True once `undo()` took the work back in the activity's last run.
    var wasUndone: Bool { get }
}

/// Work an `UndoableActivity` holds back: facts only, which each front end words.
public struct WaitingWork: Sendable, Equatable {
    /// What waits, as a noun phrase: "the message".
    public var what: String
    /// Where it goes: the recipients' addresses, a device's name.
    public var destinations: [String]
    /// When it goes by itself.
    public var deadline: Date

    /// Describes work that waits until `deadline` before it goes to `destinations`.
    public init(what: String, destinations: [String], deadline: Date) {
        self.what = what
        self.destinations = destinations
        self.deadline = deadline
    }
}
