import ShareSheet

/// What a suggestion is called where a person meets it: "Mail to Ana Lima" for a screen reader
/// and a tooltip, and the initials an avatar draws when there is no photo. Every front end says
/// them the same way, so they are worded here and not in a front end.
public enum SuggestionNames {
    /// The suggestion spoken whole: its activity and its target.
    ///
    /// "Mail to Ana Lima", "AirDrop to Ana's Pixel"; an activity whose title trails off
    /// ("Open In…") continues with the target ("Open In Image Viewer"); a share target suggested
    /// as itself ("Telegram" for Telegram) is said once.
    /// - Parameters:
    ///   - suggestion: the suggestion.
    ///   - activityTitle: the title of the activity it runs, as its button says it.
    public static func spoken(_ suggestion: ActivitySuggestion, activityTitle: String) -> String {
        let target = suggestion.title.trimmingCharacters(in: .whitespacesAndNewlines)
        let activity = activityTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        if target.isEmpty { return activity }
        if activity.isEmpty || activity.caseInsensitiveCompare(target) == .orderedSame { return target }
        for ellipsis in ["…", "..."] where activity.hasSuffix(ellipsis) {
            return "\(activity.dropLast(ellipsis.count)) \(target)"
        }
        return "\(activity) to \(target)"
    }

    /// Up to two letters for an avatar: the first letters of the first and last words of a name
    /// ("Ana Lima" → "AL"), of the parts of an address's local part ("bo.silva@example.com" →
    /// "BS"); nil when the title has no letter to show (a phone number), so an icon is drawn.
    public static func initials(of title: String) -> String? {
        var name = Substring(title.trimmingCharacters(in: .whitespacesAndNewlines))
        var separators: (Character) -> Bool = { $0.isWhitespace }
        if !name.contains(where: \.isWhitespace), let at = name.firstIndex(of: "@") {
            // An address alone: its local part is the closest thing to a name.
            name = name[..<at]
            separators = { ".-_+".contains($0) }
        }
        let words = name.split(whereSeparator: separators).filter { $0.first?.isLetter == true }
        guard let first = words.first?.first else { return nil }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }
}
