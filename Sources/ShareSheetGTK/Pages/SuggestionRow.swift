import CGtk
import ShareSheet
import Sharing

/// The people, devices and applications the controller suggests, as a row of round avatars
/// above the share row (SPEC §12), best first, the way the iOS sheet puts people first.
///
/// Each avatar is a button: Tab reaches it, the arrow keys move along the row as they do in the
/// activity rows, Enter or Space picks it. While the person types in the filter, the row keeps
/// the avatars whose name or address contains what they typed (not the activity's name: typing
/// "mail" means the Mail activity, not someone to mail), and disappears when none does.
@MainActor
final class SuggestionRow {
    /// The row; hidden, taking no space, when there is nothing to suggest.
    let widget: Widget
    /// The avatars, best first.
    let avatars: [SuggestionAvatar]

    /// - Parameters:
    ///   - suggestions: the controller's suggestions, best first.
    ///   - activities: the sheet's activities, for each suggestion's activity title and icon.
    ///   - names: the activities' titles and icons as the rows show them.
    ///   - pick: runs with the suggestion the person picked.
    init(
        suggestions: [ActivitySuggestion], activities: [Activity], names: ActivityNames,
        pick: @escaping @MainActor (ActivitySuggestion) -> Void
    ) {
        avatars = suggestions.compactMap { suggestion in
            // The controller offers only suggestions for activities on the sheet.
            guard let activity = activities.first(where: { $0.activityType == suggestion.activityType }) else { return nil }
            let entry = names.entry(for: activity)
            return SuggestionAvatar(
                suggestion: suggestion, spokenName: SuggestionNames.spoken(suggestion, activityTitle: entry.title),
                activityIcon: entry.iconName, pick: { pick(suggestion) })
        }
        let box = Widgets.horizontal(spacing: 4)
        for avatar in avatars { Widgets.append(box, avatar.widget) }
        // A row that scrolls sideways is measured as if it were as wide as it likes, where no
        // caption wraps: its height would cut every second line. Each avatar is measured at
        // the width it gets, and the row asks for the tallest.
        var tallest: Int32 = 0
        for avatar in avatars {
            var minimum: Int32 = 0
            var natural: Int32 = 0
            gtk_widget_measure(avatar.widget, GTK_ORIENTATION_VERTICAL, SuggestionAvatar.width, &minimum, &natural, nil, nil)
            tallest = max(tallest, natural)
        }
        gtk_widget_set_size_request(box, -1, tallest)
        widget = Widgets.scroller(box, horizontal: true, name: "Suggestions")
        Widgets.show(widget, !avatars.isEmpty)
    }

    /// The first avatar still shown, for Enter in the filter and the first focus.
    var firstShown: SuggestionAvatar? {
        avatars.first { gtk_widget_get_visible($0.widget) != 0 && gtk_widget_get_visible(widget) != 0 }
    }

    /// Shows the avatars whose name or address contains `typed` (all when it is empty) and the
    /// row only when one is left; true when one is.
    @discardableResult
    func filter(_ typed: String) -> Bool {
        var anyShown = false
        for avatar in avatars {
            let shown = Self.matches(avatar.suggestion, typed)
            Widgets.show(avatar.widget, shown)
            anyShown = anyShown || shown
        }
        Widgets.show(widget, anyShown)
        return anyShown
    }

    /// The first avatar the filter keeps for `typed`, from the text itself (Enter may come
    /// before the entry has applied the filter on screen).
    func firstMatch(_ typed: String) -> SuggestionAvatar? {
        avatars.first { Self.matches($0.suggestion, typed) }
    }

    /// Whether `suggestion` stays when the person has typed `typed`: its name or address
    /// contains it. The subtitle is not searched: it may name the activity ("Mail ·
    /// ana@example.com").
    static func matches(_ suggestion: ActivitySuggestion, _ typed: String) -> Bool {
        let address = suggestion.activityType == .mail || suggestion.activityType == .message ? suggestion.presets["to"] : nil
        return typed.isEmpty || suggestion.title.localizedCaseInsensitiveContains(typed)
            || address?.localizedCaseInsensitiveContains(typed) == true
    }
}
