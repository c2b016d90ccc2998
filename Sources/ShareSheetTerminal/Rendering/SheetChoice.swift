import ShareSheet
import Sharing

/// One numbered line of the terminal sheet: a suggestion (the first lines) or an activity of
/// the share or action row. Numbers run on from the suggestions into the rows, so a number
/// always names one choice.
public enum SheetChoice {
    /// A person, device or application suggested for these items: picked with its presets.
    case suggestion(ActivitySuggestion)
    /// An activity of a row.
    case activity(Activity)

    /// The activity, when this is one.
    public var activity: Activity? {
        if case .activity(let activity) = self { return activity }
        return nil
    }

    /// What the sheet shows: "Mail to Ana Lima" with the address apart, or an activity's title
    /// with the name `share --activity` takes.
    @MainActor
    func shown(_ names: ActivityNames) -> (title: String, detail: String?) {
        switch self {
        case .suggestion(let suggestion):
            let words = names.words(for: suggestion)
            return (words.phrase, words.detail)
        case .activity(let activity):
            let shown = names.shown(activity)
            return (shown.title, shown.commandName)
        }
    }

    /// The words typing may name it by (lowercased): the title and the command name, or the
    /// suggestion's phrase, its title and its id.
    @MainActor
    func words(_ names: ActivityNames) -> [String] {
        switch self {
        case .suggestion(let suggestion):
            return [names.words(for: suggestion).phrase, suggestion.title, suggestion.id].map { $0.lowercased() }
        case .activity(let activity):
            let shown = names.shown(activity)
            return [shown.title, shown.commandName].compactMap { $0?.lowercased() }
        }
    }

    /// Picks it on `controller`: the suggestion with its presets, or the activity.
    /// - Returns: true when the pick was taken.
    @MainActor
    func select(on controller: ActivityViewController) -> Bool {
        switch self {
        case .suggestion(let suggestion): return controller.select(suggestion)
        case .activity(let activity): return activity.activityType.map { controller.select($0) } ?? false
        }
    }
}
