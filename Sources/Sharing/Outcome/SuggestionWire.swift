import ShareServiceProtocol
import ShareSheet

// A suggestion on the wire (SPEC §12): the controller's `ActivitySuggestion` as
// `ListSuggestions` lists it, named as `ListActivities` names its activity, and back for the
// clients, so the service and an application's library draw the same suggestion.

extension WireSuggestion {
    /// The listing's entry for `suggestion`, its activity named by `names` (`mail`).
    @MainActor
    public init(_ suggestion: ActivitySuggestion, names: ActivityNames) {
        self.init(
            id: suggestion.id, activity: names.name(of: suggestion.activityType), activityType: suggestion.activityType.rawValue,
            title: suggestion.title, subtitle: suggestion.subtitle, iconName: suggestion.iconName,
            photo: suggestion.photoPath ?? "", presets: suggestion.presets)
    }
}

extension ActivitySuggestion {
    /// The suggestion a listing's entry describes, for a client that draws it as the library's.
    public init(_ wire: WireSuggestion) {
        self.init(
            id: wire.id, activityType: ActivityType(rawValue: wire.activityType), title: wire.title, subtitle: wire.subtitle,
            iconName: wire.iconName, photoPath: wire.photo.isEmpty ? nil : wire.photo, presets: wire.presets)
    }
}
