import GVariants

/// One activity of the `ListActivities` reply (SPEC §8): share row first, then the action row,
/// then the activities not offered, each with its reason.
public struct WireActivity: Equatable, Sendable {
    /// `activity`: the CLI name, or `app.ID` for a caller's own action.
    public var activity: String
    /// `activity-type`: the Apple raw value or `org.sharesheet.target.ID`.
    public var activityType: String
    /// `title`
    public var title: String
    /// `icon-name`: a freedesktop icon name.
    public var iconName: String
    /// `category`: `share` or `action`.
    public var category: String
    /// `available` (b): whether the sheet offers it for these items.
    public var available: Bool
    /// `reason`: why it is not offered; only on unavailable ones.
    public var reason: String?
    /// `reason-setting`: the setting that would make it available (`accounts.flickr`).
    public var reasonSetting: String?
    /// `reason-fix`: the kind of fix that would make it available (a `ShareError.Fix` raw value).
    public var reasonFix: String?
    /// `reason-path`: the file or folder that matters.
    public var reasonPath: String?

    /// An activity of the listing.
    public init(
        activity: String, activityType: String, title: String, iconName: String, category: String, available: Bool,
        reason: String? = nil, reasonSetting: String? = nil, reasonFix: String? = nil, reasonPath: String? = nil
    ) {
        self.activity = activity
        self.activityType = activityType
        self.title = title
        self.iconName = iconName
        self.category = category
        self.available = available
        self.reason = reason
        self.reasonSetting = reasonSetting
        self.reasonFix = reasonFix
        self.reasonPath = reasonPath
    }

    /// The activity's `a{sv}`.
    public func encode() -> GVariant {
        var entries = WireEntries()
        entries.add("activity", activity)
        entries.add("activity-type", activityType)
        entries.add("title", title)
        entries.add("icon-name", iconName)
        entries.add("category", category)
        entries.add("available", available)
        entries.add("reason", reason)
        entries.add("reason-setting", reasonSetting)
        entries.add("reason-fix", reasonFix)
        entries.add("reason-path", reasonPath)
        return entries.variant
    }

    /// Reads an activity's `a{sv}`; `number` (from 1) names it in errors.
    /// - Throws: `WireError` for a missing key or one of the wrong type.
    public init(decoding value: GVariant, number: Int = 1) throws {
        let entry = try WireDictionary(value, place: "activity \(number): ", name: "activity \(number)")
        self.init(
            activity: try entry.requiredString("activity"), activityType: try entry.requiredString("activity-type"),
            title: try entry.requiredString("title"), iconName: try entry.string("icon-name") ?? "",
            category: try entry.requiredString("category"), available: try entry.required("available", type: "b").bool ?? false,
            reason: try entry.string("reason"), reasonSetting: try entry.string("reason-setting"),
            reasonFix: try entry.string("reason-fix"), reasonPath: try entry.string("reason-path"))
    }

    /// The listing's `aa{sv}`.
    public static func encode(_ listing: [WireActivity]) -> GVariant {
        .dictionaries(listing.map { $0.encode() })
    }

    /// Reads a listing's `aa{sv}`.
    public static func decode(_ value: GVariant) throws -> [WireActivity] {
        guard value.typeString == "aa{sv}" else {
            throw WireError("activities must be of type aa{sv}, not \(value.typeString)")
        }
        return try value.children.enumerated().map { try WireActivity(decoding: $1, number: $0 + 1) }
    }
}
