import ShareSheet
import UniformTypes

/// What `share --list` shows for some items: each item and its kind, then the activities the
/// sheet offers, row by row, and those it does not with the reason. `share --list --json`
/// encodes it; the human listing prints the same values. The suggestions come first, as the
/// sheet shows them (SPEC §12).
public struct SheetListing: Codable, Sendable, Equatable {
    /// The people, devices and applications suggested, best first.
    public var suggestions: [Suggestion]
    /// The items, in the order given.
    public var items: [Item]
    /// The share row, in the order shown.
    public var share: [Entry]
    /// The action row, in the order shown.
    public var action: [Entry]
    /// The activities not offered, each with its reason.
    public var unavailable: [Entry]

    /// Lists rows and items.
    public init(items: [Item], share: [Entry], action: [Entry], unavailable: [Entry], suggestions: [Suggestion] = []) {
        self.suggestions = suggestions
        self.items = items
        self.share = share
        self.action = action
        self.unavailable = unavailable
    }

    /// One activity: the name the command takes, its type, its title and, when not offered, why.
    public struct Entry: Codable, Sendable, Equatable {
        /// The command-line name (`mail`, `org.example.Notes`).
        public var name: String
        /// The activity type's raw value; null for an activity without one.
        public var type: String?
        /// The title the sheet shows.
        public var title: String
        /// Why it is not offered; absent from offered entries.
        public var reason: String?

        /// Describes an activity.
        public init(name: String, type: String?, title: String, reason: String? = nil) {
            self.name = name
            self.type = type
            self.title = title
            self.reason = reason
        }

        // Written by hand to keep the shape scripts already read: `type` is always present
        // (null when missing), `reason` only on unavailable entries.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(type, forKey: .type)
            try container.encode(title, forKey: .title)
            try container.encodeIfPresent(reason, forKey: .reason)
        }
    }

    /// One suggestion: what `share --suggestion` takes (`id`), the activity it runs by both its
    /// names, what it is called, and the presets it applies.
    public struct Suggestion: Codable, Sendable, Equatable {
        /// Names it for `share --suggestion` (`mail:ana@example.com`).
        public var id: String
        /// The activity's command-line name (`mail`).
        public var activity: String
        /// The activity type's raw value.
        public var activityType: String
        /// Who or what: "Ana Lima", "Ana's Pixel".
        public var title: String
        /// What tells it apart ("Mail · ana@example.com"); null when empty.
        public var subtitle: String?
        /// A themed icon name.
        public var iconName: String
        /// A contact's photo; null when there is none.
        public var photoPath: String?
        /// The values it sets ahead (`to`, `fingerprint`); null when none.
        public var presets: [String: String]?

        /// Describes `suggestion`, whose activity the command calls `activity`.
        public init(_ suggestion: ActivitySuggestion, activity: String) {
            id = suggestion.id
            self.activity = activity
            activityType = suggestion.activityType.rawValue
            title = suggestion.title
            subtitle = suggestion.subtitle.isEmpty ? nil : suggestion.subtitle
            iconName = suggestion.iconName
            photoPath = suggestion.photoPath
            presets = suggestion.presets.isEmpty ? nil : suggestion.presets
        }

        // Every key present, null when empty (the house rule for JSON listings).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(activity, forKey: .activity)
            try container.encode(activityType, forKey: .activityType)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(iconName, forKey: .iconName)
            try container.encode(photoPath, forKey: .photoPath)
            try container.encode(presets, forKey: .presets)
        }
    }

    /// One item: how it was given, what kind it is, and its type as a UTType identifier and a
    /// MIME type (null when the kind has no type, or the type no MIME type).
    public struct Item: Codable, Sendable, Equatable {
        /// The item as given: the path as typed, the URL, "-", a quoted excerpt of text.
        public var label: String
        /// The kind in one word: `text`, `file`, `web-link`, `link`, `data`, `image`…
        public var kind: String
        /// The content type's identifier (`public.png`).
        public var typeIdentifier: String?
        /// The content type's preferred MIME type (`image/png`).
        public var mimeType: String?
        /// The kind for people: "image file (public.png, image/png)".
        public var description: String

        /// Describes an item of `kind` given as `label`.
        public init(label: String, kind: ItemKind) {
            self.label = label
            self.kind = Self.word(for: kind)
            let type = kind.contentType
            typeIdentifier = type?.identifier
            mimeType = type?.preferredMIMEType
            // The kind's phrase ends with the identifier in parentheses whenever it has a type;
            // the MIME type goes beside it, so the phrase stays the kind's own.
            var description = kind.description
            if let identifier = typeIdentifier, let mimeType, description.hasSuffix(identifier + ")") {
                description = String(description.dropLast()) + ", " + mimeType + ")"
            }
            self.description = description
        }

        // Every key present, null when empty: one shape for every item.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(kind, forKey: .kind)
            try container.encode(typeIdentifier, forKey: .typeIdentifier)
            try container.encode(mimeType, forKey: .mimeType)
            try container.encode(description, forKey: .description)
        }

        private static func word(for kind: ItemKind) -> String {
            switch kind {
            case .string: return "text"
            case .attributedString: return "attributed-text"
            case .webURL: return "web-link"
            case .fileURL: return "file"
            case .schemeURL: return "link"
            case .data: return "data"
            case .image: return "image"
            case .asset: return "asset"
            case .color: return "color"
            case .dictionary: return "dictionary"
            case .array: return "array"
            case .printInfo: return "print-info"
            case .printFormatter: return "print-formatter"
            case .printPageRenderer: return "print-page-renderer"
            case .other: return "other"
            }
        }
    }
}
