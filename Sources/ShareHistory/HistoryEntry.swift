import Foundation

/// One finished share as the history keeps it: when, which activity, to whom or where, what
/// kinds of items and how many, and how it ended. Never the items themselves, their names,
/// a subject or a body: the history is for suggesting people and places, not for reading back
/// what was said.
public struct HistoryEntry: Sendable, Equatable, Encodable {
    /// The row id, for `share history forget ID`; 0 before it is stored.
    public var id: Int
    /// When the share finished.
    public var time: Date
    /// The activity's type (Apple's raw value for the built-ins, `sharesheet.target.…` for a share target).
    public var activityType: String
    /// The activity's short name (`mail`, `airdrop`).
    public var activity: String
    /// Who or what the items went to, in the order the share named them.
    public var targets: [HistoryTarget]
    /// How many items of each kind.
    public var items: [ItemCount]
    /// How it ended: `sent`, `saved`, `queued`, `failed`…
    public var disposition: String

    /// How many items of one kind a share had.
    public struct ItemCount: Sendable, Equatable, Encodable {
        /// `image`, `movie`, `text`, `link` or `file`.
        public var kind: String
        /// How many.
        public var count: Int

        /// Describes a count.
        public init(kind: String, count: Int) {
            self.kind = kind
            self.count = count
        }
    }

    /// Describes an entry.
    public init(
        id: Int = 0, time: Date, activityType: String, activity: String, targets: [HistoryTarget],
        items: [ItemCount], disposition: String
    ) {
        self.id = id
        self.time = time
        self.activityType = activityType
        self.activity = activity
        self.targets = targets
        self.items = items
        self.disposition = disposition
    }

    /// How many items, of every kind.
    public var itemCount: Int { items.reduce(0) { $0 + $1.count } }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(activity, forKey: .activity)
        try container.encode(targets, forKey: .targets)
        try container.encode(items, forKey: .items)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encode(disposition, forKey: .disposition)
    }

    private enum CodingKeys: String, CodingKey { case id, time, activityType, activity, targets, items, itemCount, disposition }
}

/// One person, device, application or printer a share went to.
public struct HistoryTarget: Sendable, Hashable, Encodable {
    /// What kind of target it is.
    public var kind: Kind
    /// What names it for good: an address, a device's fingerprint, a desktop id, a queue name.
    public var value: String
    /// What a person calls it, when that differs from `value` (a device's alias).
    public var name: String?

    /// The kinds of target the history tells apart, so suggestions can count each kind.
    public enum Kind: String, Sendable, Hashable, Encodable, CaseIterable {
        /// A mail or message recipient.
        case recipient
        /// A LocalSend device (AirDrop).
        case device
        /// An application the items were opened in.
        case application
        /// A share target (an application's desktop entry).
        case shareTarget = "share-target"
        /// A CUPS printer.
        case printer
        /// A contact in the vCard folder.
        case contact
    }

    /// Describes a target.
    public init(kind: Kind, value: String, name: String? = nil) {
        self.kind = kind
        self.value = value
        self.name = name
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(value, forKey: .value)
        try container.encode(name, forKey: .name)
    }

    private enum CodingKeys: String, CodingKey { case kind, value, name }
}
