import ShareSheet

extension ActivityNames {
    /// What a list of suggestions shows for one: "Mail to Ana Lima" and, apart, what tells it
    /// apart ("ana@example.com"), so the terminal sheet, `share --list` and `share suggestions`
    /// word a suggestion alike.
    /// - Returns: the phrase, and the address it goes to when the phrase does not say it
    ///   already (nil for a device, an application or a printer).
    public func words(for suggestion: ActivitySuggestion) -> (phrase: String, detail: String?) {
        words(for: suggestion.activityType, title: suggestion.title, presets: suggestion.presets)
    }

    /// The words for a suggestion of `type` called `title` with `presets` (as a listing keeps it).
    public func words(for type: ActivityType, title: String, presets: [String: String]) -> (phrase: String, detail: String?) {
        var activityTitle = registry.descriptor(for: type)?.title ?? name(of: type)
        // "Open In…" names a step in a menu; before a name the dots say nothing.
        if activityTitle.hasSuffix("…") { activityTitle.removeLast() }
        switch type {
        case .mail, .message, .airDrop:
            let address = presets["to"]
            let detail = type == .airDrop || address == title ? nil : address
            return ("\(activityTitle) to \(title)", detail)
        default:
            return ("\(activityTitle): \(title)", nil)
        }
    }
}
