/// A person, device or application to share with in one pick (SPEC §12): an activity with the
/// presets that aim it ("Mail to Ana Lima" is Mail with `to` set). Picking one runs its activity
/// with those presets, so the sheet's form has nothing left to ask that the suggestion knew.
///
/// Suggestions come from the controller's `suggestionSource`; the share history the person owns
/// is the usual one. The controller offers only those whose activity the sheet offers.
public struct ActivitySuggestion: Sendable, Hashable {
    /// Names the suggestion for good across sheets and processes (`mail:ana@example.com`):
    /// `share --suggestion`, D-Bus `Share`'s `suggestion` option and the window's pick use it.
    public var id: String
    /// The activity it runs.
    public var activityType: ActivityType
    /// What a person calls the target: "Ana Lima", "Ana's Pixel", "Image Viewer".
    public var title: String
    /// What tells it apart: an address, a device's model, "used 3 times".
    public var subtitle: String
    /// A themed icon name for the target (a contact's initials are drawn when there is no photo).
    public var iconName: String
    /// A contact's photo, when the target is a contact who has one: a file to draw in the avatar.
    public var photoPath: String?
    /// The values set ahead for the activity's interface (`to`, `fingerprint`, `app`, `printer`).
    public var presets: [String: String]

    /// Describes a suggestion.
    public init(
        id: String, activityType: ActivityType, title: String, subtitle: String = "", iconName: String,
        photoPath: String? = nil, presets: [String: String]
    ) {
        self.id = id
        self.activityType = activityType
        self.title = title
        self.subtitle = subtitle
        self.iconName = iconName
        self.photoPath = photoPath
        self.presets = presets
    }
}

/// Where a controller's suggestions come from: the history the person owns, or an application's
/// own list of people.
@MainActor
public protocol SuggestionSource: AnyObject {
    /// The suggestions for items of `kinds`, best first; the controller keeps those whose
    /// activity is among `offered` (the sheet's activities, in its order) and shows at most
    /// `ActivityViewController.suggestionLimit`.
    func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion]

    /// Starts following what can change while the sheet is shown (devices coming into range):
    /// `changed` runs with the whole new list, best first, each time it changes. The default
    /// follows nothing.
    func followSuggestions(
        for kinds: [ItemKind], offered: [Activity], changed: @escaping @MainActor ([ActivitySuggestion]) -> Void)

    /// Stops following; `changed` is not called after this. The default does nothing.
    func stopFollowingSuggestions()

    /// The people whose name or `kind` of address starts with what was typed (`typed`, a word
    /// of the name or the address's start, letter case aside), best first, at most `limit`,
    /// for an address field to offer as the person types. The default knows nobody.
    func people(matching typed: String, kind: AddressKind, limit: Int) -> [AddressCompletion]
}

extension SuggestionSource {
    public func followSuggestions(
        for kinds: [ItemKind], offered: [Activity], changed: @escaping @MainActor ([ActivitySuggestion]) -> Void
    ) {}

    public func stopFollowingSuggestions() {}

    public func people(matching typed: String, kind: AddressKind, limit: Int) -> [AddressCompletion] { [] }
}
