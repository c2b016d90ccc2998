import Foundation
import ShareHistory
import ShareSheet

/// One person, device or application that could be suggested, with the parts of its score
/// (`share suggestions --explain` prints them).
public struct SuggestionCandidate: Sendable, Equatable {
    /// What the sheet would show and pick.
    public var suggestion: ActivitySuggestion
    /// Where it comes from.
    public var origin: Origin
    /// How many counted shares went to it (0 for a contact or device never shared with).
    public var uses: Int
    /// When the last of them finished.
    public var lastUsed: Date?
    /// `HistoryRanking`'s score: the shares' weights added up.
    public var score: Double
    /// True when its activity is on this sheet (a candidate of an activity the items do not
    /// suit is listed by `--explain`, never suggested).
    public var isOffered: Bool

    /// Where a candidate comes from.
    public enum Origin: String, Sendable, Equatable {
        /// Shared with before (the history).
        case history
        /// A contact of the vCard folder with an address or number, never shared with.
        case contact
        /// A LocalSend device the person pinned.
        case pinnedDevice = "pinned-device"
        /// A LocalSend device that came into range while the sheet was shown.
        case nearbyDevice = "nearby-device"
    }

    /// Describes a candidate.
    public init(suggestion: ActivitySuggestion, origin: Origin, uses: Int, lastUsed: Date?, score: Double, isOffered: Bool) {
        self.suggestion = suggestion
        self.origin = origin
        self.uses = uses
        self.lastUsed = lastUsed
        self.score = score
        self.isOffered = isOffered
    }
}
