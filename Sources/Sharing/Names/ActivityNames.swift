import ShareSheet
import ShareSheetSystem

/// What people and programs call an activity: the names every front end shows and accepts.
public struct ActivityName: Sendable, Equatable, Codable {
    /// The command-line name (`mail`, `reading-list`); an application activity's raw type.
    public var name: String
    /// The activity type's raw value (Apple's for the built-ins).
    public var activityType: String
    /// The title under the icon ("Mail", "Add to Reading List").
    public var title: String
    /// A freedesktop icon name (`mail-send`, `printer`; ours start with `sharesheet-`).
    public var iconName: String
    /// The row: `share` or `action`.
    public var category: String
}

/// Turns the names people type (`mail`, `Reading-List`, `com.apple.UIKit.activity.Mail`) into
/// activity types and back, with "did you mean" when a name is unknown.
@MainActor
public struct ActivityNames {
    /// Where the built-ins come from.
    public let registry: ActivityRegistry

    /// Names the built-ins of `registry`.
    public init(registry: ActivityRegistry) {
        self.registry = registry
    }

    /// The names of a fresh registry's built-ins (the catalog), for a front end given no registry.
    public static var catalog: ActivityNames { ActivityNames(registry: ActivityRegistry()) }

    /// Every built-in's command name, share row first, then the installed share targets'.
    public var all: [String] { (registry.descriptors + registry.extensionDescriptors).map(\.name) }

    /// The type of the built-in named `name` (its command name in any case, or its raw type).
    /// - Throws: a usage error with the closest names when nothing has that name.
    public func type(named name: String) throws -> ActivityType {
        if let descriptor = registry.descriptor(named: name) ?? registry.descriptor(named: name.lowercased()) {
            return descriptor.type
        }
        // A prefix of one name picks it (`rea` → reading-list); of several, says which.
        let lowered = name.lowercased()
        let starting = all.filter { $0.lowercased().hasPrefix(lowered) }
        if starting.count == 1, let descriptor = registry.descriptor(named: starting[0]) { return descriptor.type }
        if starting.count > 1 {
            throw ShareError(
                .usage, "'\(name)' could be \(Suggestions.phrase(starting).replacingOccurrences(of: "'", with: "")) (say which)",
                hint: starting.first)
        }
        let close = Suggestions.closest(to: name, among: all)
        guard !close.isEmpty else { throw ShareError(.usage, "unknown activity '\(name)'", fix: .chooseActivity) }
        throw ShareError(.usage, "unknown activity '\(name)' (did you mean \(Suggestions.phrase(close))?)", hint: close.first)
    }

    /// The command name of a type, else its raw value.
    public func name(of type: ActivityType) -> String {
        registry.descriptor(for: type)?.name ?? type.rawValue
    }

    /// Every name of an activity on the sheet.
    public func entry(for activity: Activity) -> ActivityName {
        let type = activity.activityType
        let name = (activity as? BuiltInActivity)?.descriptor.name ?? type.map(name(of:)) ?? "activity"
        return ActivityName(
            name: name, activityType: type?.rawValue ?? "", title: activity.activityTitle ?? name,
            iconName: (activity as? ActivityIconNaming)?.iconName ?? type.flatMap { Self.iconNames[$0] }
                ?? Self.fallbackIconName,
            category: activity.category == .share ? "share" : "action")
    }

    /// Freedesktop icon names where the theme has one; our own `sharesheet-*` symbolic icons
    /// for services the theme does not draw. Message is a speech bubble and Mail an envelope, as
    /// on iOS: Adwaita's `mail-message-new` is an envelope too, and the two tiles side by side
    /// could not be told apart.
    public static let iconNames: [ActivityType: String] = [
        .mail: "mail-send", .message: "chat-message-new", .print: "printer", .copyToPasteboard: "edit-copy",
        .assignToContact: "contact-new", .saveToCameraRoll: "image-x-generic", .addToReadingList: "bookmark-new",
        .airDrop: "sharesheet-airdrop", .openIn: "document-open", .postToTwitter: "sharesheet-twitter",
        .postToFacebook: "sharesheet-facebook", .postToWeibo: "sharesheet-weibo",
        .postToTencentWeibo: "sharesheet-tencent-weibo", .postToFlickr: "sharesheet-flickr",
        .postToVimeo: "sharesheet-vimeo", .postToMastodon: "sharesheet-mastodon",
    ]

    /// The icon of an activity the table does not know (an application's own).
    public static let fallbackIconName = "system-run"
}
