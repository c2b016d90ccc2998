/// Something made from the history that each recorded share changes: the suggestions' snapshots
/// (ShareSuggestions), which the next process's sheet reads instead of the database. The
/// command and the service hand one to `HistoryRecording.record`.
@MainActor
public protocol HistoryFollowing: AnyObject {
    /// Called just before a share is written, so what the history was can be noted.
    func historyWillRecord()
    /// Called once the share is in the history.
    func historyRecorded(_ share: RecordedShare)
}

/// What a recorded share changed in the history, for those who follow it.
public struct RecordedShare: Sendable, Equatable {
    /// The kinds of its items (`image`, `text`…).
    public var kinds: Set<String>
    /// True when it counts for the ranking (it did not fail).
    public var counts: Bool
    /// How many old shares were dropped with it (`keep-days`).
    public var dropped: Int

    /// Describes a recorded share.
    public init(kinds: Set<String>, counts: Bool, dropped: Int) {
        self.kinds = kinds
        self.counts = counts
        self.dropped = dropped
    }
}

/// A follower whose work after a share waits until `flush()`: the command prints the share's
/// result and the service answers its caller first, then the suggestions' snapshots are made
/// again (about a history query per kind of item the share held).
@MainActor
public final class DeferredHistoryFollowing: HistoryFollowing {
    private let follower: (any HistoryFollowing)?
    private var recorded: RecordedShare?

    /// Defers `follower`'s work; nil follows nothing.
    public init(_ follower: (any HistoryFollowing)?) { self.follower = follower }

    /// Passed on at once: what the history was must be noted before the share is written.
    public func historyWillRecord() { follower?.historyWillRecord() }

    public func historyRecorded(_ share: RecordedShare) { recorded = share }

    /// Does the deferred work, once.
    public func flush() {
        guard let share = recorded else { return }
        recorded = nil
        follower?.historyRecorded(share)
    }
}
