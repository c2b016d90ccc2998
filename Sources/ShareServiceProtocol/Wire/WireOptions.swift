import GVariants

/// The options of `Share`, `ListActivities` and `ListSuggestions` (SPEC §8), each nil or empty when not given.
public struct WireOptions: Equatable, Sendable {
    /// `handle_token` (s): the last element of the request's path.
    public var handleToken: String?
    /// `subject` (s)
    public var subject: String?
    /// `fields` (a{ss}): preset values for the activity's form (to, cc, subject, body, printer…).
    public var fields: [Field]
    /// `excluded-activities` (as): CLI names or activity types.
    public var excludedActivities: [String]
    /// `activity` (s): skip the sheet.
    public var activity: String?
    /// `suggestion` (s): skip the sheet for a suggestion of `ListSuggestions`, by its `id`: its
    /// activity runs with its presets.
    public var suggestion: String?
    /// `interactive` (b); absent means true.
    public var interactive: Bool?
    /// `custom-actions` (a(sss)): the caller's own activities.
    public var customActions: [CustomAction]
    /// `choose-items` (b): whether the person may leave items out in the window; absent means
    /// true.
    public var chooseItems: Bool?
    /// `sent-items` (au): the positions (from 0) of the items that go; absent sends them all.
    public var sentItems: [Int]?
    /// `image-size` (s): `original`, `large`, `medium` or `small`; absent takes the activity's
    /// default.
    public var imageSize: String?
    /// `keep-location` (b): photos keep their location and camera serial even when they leave.
    public var keepLocation: Bool?

    /// One `fields` entry.
    public struct Field: Equatable, Sendable {
        /// The field's id (`to`, `cc`, `body`) or a `--set` key.
        public var key: String
        /// Its value.
        public var value: String

        /// A field preset to `value`.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// One `custom-actions` entry: `(id, title, icon-name)`; picking it ends the request with
    /// `activity = app.ID`.
    public struct CustomAction: Equatable, Sendable {
        /// The caller's id for it.
        public var id: String
        /// The title the sheet shows.
        public var title: String
        /// The freedesktop icon name; "" for none.
        public var iconName: String

        /// An action the caller performs itself.
        public init(id: String, title: String, iconName: String = "") {
            self.id = id
            self.title = title
            self.iconName = iconName
        }
    }

    /// Options with the values given; the rest left out.
    public init(
        handleToken: String? = nil, subject: String? = nil, fields: [Field] = [], excludedActivities: [String] = [],
        activity: String? = nil, interactive: Bool? = nil, customActions: [CustomAction] = [], suggestion: String? = nil
    ) {
        self.handleToken = handleToken
        self.subject = subject
        self.fields = fields
        self.excludedActivities = excludedActivities
        self.activity = activity
        self.interactive = interactive
        self.customActions = customActions
        self.suggestion = suggestion
    }

    /// The options' `a{sv}`; options without a value are left out.
    public func encode() -> GVariant {
        var entries = WireEntries()
        entries.add("handle_token", handleToken)
        entries.add("subject", subject)
        if !fields.isEmpty { entries.add("fields", .stringPairs(fields.map { ($0.key, $0.value) })) }
        if !excludedActivities.isEmpty { entries.add("excluded-activities", .strings(excludedActivities)) }
        entries.add("activity", activity)
        entries.add("suggestion", suggestion)
        entries.add("interactive", interactive)
        entries.add("choose-items", chooseItems)
        if let sentItems { entries.add("sent-items", .array(of: "u", sentItems.map { .uint32(UInt32(clamping: $0)) })) }
        entries.add("image-size", imageSize)
        entries.add("keep-location", keepLocation)
        if !customActions.isEmpty {
            entries.add(
                "custom-actions",
                .array(of: "(sss)", customActions.map { .tuple([.string($0.id), .string($0.title), .string($0.iconName)]) }))
        }
        return entries.variant
    }

    /// Reads an options `a{sv}`; keys it does not know are ignored, as portals do.
    /// - Throws: `WireError` naming an option of the wrong type, or a custom action without an
    ///   id or a title.
    public init(decoding value: GVariant) throws {
        let options = try WireDictionary(value, place: "option ", name: "options")
        self.init(
            handleToken: try options.string("handle_token"), subject: try options.string("subject"),
            fields: (try options.optional("fields", type: "a{ss}")?.stringPairs ?? []).map { Field($0.0, $0.1) },
            excludedActivities: try options.strings("excluded-activities") ?? [], activity: try options.string("activity"),
            interactive: try options.bool("interactive"), suggestion: try options.string("suggestion"))
        chooseItems = try options.bool("choose-items")
        sentItems = try options.optional("sent-items", type: "au")?.children.map { Int($0.uint32 ?? 0) }
        imageSize = try options.string("image-size")
        keepLocation = try options.bool("keep-location")
        for action in try options.optional("custom-actions", type: "a(sss)")?.children ?? [] {
            let fields = action.children.map { $0.string ?? "" }
            guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw WireError("custom-actions: each needs an id and a title")
            }
            customActions.append(CustomAction(id: fields[0], title: fields[1], iconName: fields[2]))
        }
    }

    /// The `handle_token` of an options `a{sv}` when it is a string that can name a request
    /// object, whatever else is wrong with the options.
    public static func validToken(in value: GVariant) -> String? {
        guard let token = value.lookup("handle_token")?.string, ServiceNames.isValidToken(token) else { return nil }
        return token
    }
}
