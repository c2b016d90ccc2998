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
