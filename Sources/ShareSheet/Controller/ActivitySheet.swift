/// What a sheet offers for its items, as presenters show it.
@MainActor
public struct ActivitySheet {
    /// Activities that send the items somewhere (the first row).
    public var shareRow: [Activity]
    /// Activities that act on the items here (the second row).
    public var actionRow: [Activity]
    /// Activities that are not offered, with the reason for each.
    public var unavailable: [(activity: Activity, reason: String)]
    /// The facts of those reasons that come with a fix (an account to add), by the activity's
    /// identity: `unavailability(of:)` reads them.
    public var unavailableFixes: [ObjectIdentifier: Unavailability] = [:]
    /// The kind of each item (a source's placeholder stands for it), in item order.
    public var itemKinds: [ItemKind]
    /// What a header shows of each item, in item order: the placeholder (a source's stands for
    /// its item) and the source's link metadata. Made with the sheet; no provider work.
    public var previews: [ItemPreview] = []
    /// The people, devices and applications suggested for these items, best first, each for an
    /// activity the sheet offers (SPEC §12).
    public var suggestions: [ActivitySuggestion] = []

    /// Every offered activity: the share row, then the action row.
    public var activities: [Activity] { shareRow + actionRow }

    /// Why `activity` is not offered, with what would make it available; nil when it is offered
    /// or not on the sheet.
    public func unavailability(of activity: Activity) -> Unavailability? {
        if let facts = unavailableFixes[ObjectIdentifier(activity)] { return facts }
        return unavailable.first { $0.activity === activity }.map { Unavailability($0.reason) }
    }
}

/// One item as a sheet's header draws it, known before any provider runs.
@MainActor
public struct ItemPreview {
    /// The item, or its source's placeholder.
    public var placeholder: Any
    /// What the item's source said about it (`activityViewControllerLinkMetadata`), if anything.
    public var linkMetadata: LinkMetadata?
    /// The item's kind.
    public var kind: ItemKind
}

/// How a presentation ended: what the completion handler receives, as one value.
@MainActor
public struct ShareOutcome {
    /// The chosen activity; nil when the sheet was dismissed.
    public var activityType: ActivityType?
    /// True when the activity ran to completion.
    public var completed: Bool
    /// What the activity returned (saved files, posted URLs…).
    public var returnedItems: [Any]?
    /// Why the activity failed, when it did.
    public var error: (any Error)?
    /// Where the items went, as the activity said; nil when it said nothing.
    public var disposition: ShareDisposition?
    /// The path, URL or job id where the items went, when there is one.
    public var location: String?
    /// What the activity did instead of the real thing, and how to change it.
    public var fallback: ActivityFallback?

    /// Describes an outcome.
    public init(
        activityType: ActivityType?, completed: Bool, returnedItems: [Any]?, error: (any Error)?,
        disposition: ShareDisposition? = nil, location: String? = nil, fallback: ActivityFallback? = nil
    ) {
        self.activityType = activityType
        self.completed = completed
        self.returnedItems = returnedItems
        self.error = error
        self.disposition = disposition
        self.location = location
        self.fallback = fallback
    }

    /// The outcome of a dismissal.
    public static let dismissed = ShareOutcome(activityType: nil, completed: false, returnedItems: nil, error: nil)
}

/// Recently used activities, so a sheet can put them first.
@MainActor
public protocol ActivityHistory: AnyObject {
    /// Activity types, most recently used first.
    var recentTypes: [ActivityType] { get }
    /// Activity types most used for items of `kinds` first (SPEC §12's ranking, per kind of
    /// item); `recentTypes` unless the history tells kinds apart.
    func recentTypes(for kinds: [ItemKind]) -> [ActivityType]
    /// Notes that `type` was just picked.
    func record(_ type: ActivityType)
}

extension ActivityHistory {
    public func recentTypes(for kinds: [ItemKind]) -> [ActivityType] { recentTypes }
}

/// A running provider, as presenters show it.
public struct ProviderProgress: @unchecked Sendable {
    /// A short name for the item being produced ("recipe.pdf", "image").
    public var name: String
    /// The provider's progress.
    public var progress: Progress
}

import Foundation
