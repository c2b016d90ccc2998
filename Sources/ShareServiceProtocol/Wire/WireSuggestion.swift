import GVariants

/// One suggestion of the `ListSuggestions` reply (SPEC §12): a person, device or application to
/// share with in one pick, best first. A caller draws it, and passes its `id` back as `Share`'s
/// `suggestion` option to run its activity with its presets.
public struct WireSuggestion: Equatable, Sendable {
    /// `id`: names the suggestion for `Share`'s `suggestion` option (`mail:ana@example.com`).
    public var id: String
    /// `activity`: the CLI name of the activity it runs (`mail`), as `ListActivities` names it.
    public var activity: String
    /// `activity-type`: the Apple raw value or `org.sharesheet.target.ID`.
    public var activityType: String
    /// `title`: what a person calls the target ("Ana Lima", "Ana's Pixel").
    public var title: String
    /// `subtitle`: what tells it apart (an address, "AirDrop").
    public var subtitle: String
    /// `icon-name`: a freedesktop icon name.
    public var iconName: String
    /// `photo`: a contact's photo to draw instead of the icon, as a path; "" when there is none.
    public var photo: String
    /// `presets` (a{ss}): the values it sets ahead for the activity's form (`to`, `fingerprint`).
    public var presets: [String: String]

    /// A suggestion of the listing.
    public init(
        id: String, activity: String, activityType: String, title: String, subtitle: String = "", iconName: String,
        photo: String = "", presets: [String: String] = [:]
    ) {
        self.id = id
        self.activity = activity
        self.activityType = activityType
        self.title = title
        self.subtitle = subtitle
        self.iconName = iconName
        self.photo = photo
        self.presets = presets
    }

    /// The suggestion's `a{sv}`. Every key is there, empty when it has nothing to say, so a
    /// caller in any language reads it without checking for each.
    public func encode() -> GVariant {
        var entries = WireEntries()
        entries.add("id", .string(id))
        entries.add("activity", .string(activity))
        entries.add("activity-type", .string(activityType))
        entries.add("title", .string(title))
        entries.add("subtitle", .string(subtitle))
        entries.add("icon-name", .string(iconName))
        entries.add("photo", .string(photo))
        // Sorted, so the same suggestion is the same message.
        entries.add("presets", .stringPairs(presets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        return entries.variant
    }

    /// Reads a suggestion's `a{sv}`; `number` (from 1) names it in errors. `subtitle`,
    /// `icon-name`, `photo` and `presets` may be left out; keys it does not know are ignored.
    /// - Throws: `WireError` for a missing `id`, `activity`, `activity-type` or `title`, or a
    ///   key of the wrong type.
    public init(decoding value: GVariant, number: Int = 1) throws {
        let entry = try WireDictionary(value, place: "suggestion \(number): ", name: "suggestion \(number)")
        var presets: [String: String] = [:]
        for (key, value) in try entry.optional("presets", type: "a{ss}")?.stringPairs ?? [] { presets[key] = value }
        self.init(
            id: try entry.requiredString("id"), activity: try entry.requiredString("activity"),
            activityType: try entry.requiredString("activity-type"), title: try entry.requiredString("title"),
            subtitle: try entry.string("subtitle") ?? "", iconName: try entry.string("icon-name") ?? "",
            photo: try entry.string("photo") ?? "", presets: presets)
    }

    /// The suggestions' `aa{sv}`.
    public static func encode(_ suggestions: [WireSuggestion]) -> GVariant {
        .dictionaries(suggestions.map { $0.encode() })
    }

    /// Reads an `aa{sv}` of suggestions.
    public static func decode(_ value: GVariant) throws -> [WireSuggestion] {
        guard value.typeString == "aa{sv}" else {
            throw WireError("suggestions must be of type aa{sv}, not \(value.typeString)")
        }
        return try value.children.enumerated().map { try WireSuggestion(decoding: $1, number: $0 + 1) }
    }
}

/// The reply of `ListSuggestions`: `(aa{sv})`, shaped as `ListActivities`' reply is.
public enum WireSuggestionListing {
    /// The reply for `suggestions`.
    public static func encode(_ suggestions: [WireSuggestion]) -> GVariant { .tuple([WireSuggestion.encode(suggestions)]) }

    /// - Throws: `WireError` when the reply is not `(aa{sv})` or a suggestion is malformed.
    public static func decode(_ value: GVariant) throws -> [WireSuggestion] {
        guard value.typeString == "(aa{sv})" else {
            throw WireError("the reply must be of type (aa{sv}), not \(value.typeString)")
        }
        return try WireSuggestion.decode(value.children[0])
    }
}
