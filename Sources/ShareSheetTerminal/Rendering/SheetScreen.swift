import Foundation
import ShareSheet
import Sharing

/// The text of the terminal sheet: a header naming the items, the suggestions one per line,
/// then the share row and the action row as activities, numbered on from the suggestions and
/// wrapped to the screen width.
@MainActor
public enum SheetScreen {
    /// The activities that can be picked, numbered from 1: the share row, then the action row.
    /// Activities without a type cannot be picked, so they are left out.
    public static func pickable(_ sheet: ActivitySheet) -> [Activity] {
        sheet.activities.filter { $0.activityType != nil }
    }

    /// Everything a number picks, from 1: the suggestions, then the share row and the action row.
    public static func choices(_ sheet: ActivitySheet) -> [SheetChoice] {
        sheet.suggestions.map(SheetChoice.suggestion) + pickable(sheet).map(SheetChoice.activity)
    }

    /// The sheet as text, ending with a blank line.
    /// With `numbered` false only the items are shown: the arrow-key picker lists the activities.
    public static func render(
        _ sheet: ActivitySheet, items: [Any], style: TerminalStyle, numbered: Bool = true, names: ActivityNames = .catalog,
        leftOut: Set<Int> = []
    ) -> String {
        var text = header(items: items, kinds: sheet.itemKinds, style: style, leftOut: leftOut)
        text += "\n"
        guard numbered else { return text }
        let picks = pickable(sheet)
        let shareRow = sheet.shareRow.filter { $0.activityType != nil }
        let actionRow = sheet.actionRow.filter { $0.activityType != nil }
        var number = 0
        if !sheet.suggestions.isEmpty {
            // One line each, numbered first: "1  Mail to Ana Lima  ana@example.com".
            text += style.bold("Suggested:") + "\n"
            for suggestion in sheet.suggestions {
                number += 1
                let shown = SheetChoice.suggestion(suggestion).shown(names)
                var line = "  " + style.bold(String(number)) + "  " + shown.title
                if let detail = shown.detail { line += "  " + style.dim(detail) }
                text += line.truncated(to: style.width) + "\n"
            }
        }
        func entries(_ row: [Activity]) -> [String] {
            row.map { activity in
                number += 1
                let shown = names.shown(activity)
                var entry = style.bold(String(number)) + " " + shown.title
                if let name = shown.commandName { entry += " " + style.dim("(\(name))") }
                return entry
            }
        }
        text += row(label: "Share:", entries: entries(shareRow), width: style.width, style: style)
        text += row(label: "Actions:", entries: entries(actionRow), width: style.width, style: style)
        if picks.isEmpty { text += "Nothing can act on these items.\n" }
        return text + "\n"
    }

    /// More items than this are folded: the first `shownWhenFolded`, then "… and N more".
    public static let foldsAfter = 8
    /// How many items a folded list still shows.
    public static let shownWhenFolded = 5

    /// "Sharing 2 items:" and one line per item with its kind, each cut to the width; a long
    /// list folded to its first few items and a count.
    static func header(items: [Any], kinds: [ItemKind], style: TerminalStyle, leftOut: Set<Int> = []) -> String {
        let count = kinds.count
        var text = style.bold("Sharing \(count) \(count == 1 ? "item" : "items"):".truncated(to: style.width)) + "\n"
        let shownCount = count > foldsAfter ? shownWhenFolded : count
        let names = kinds.indices.prefix(shownCount).map { index in
            (index < items.count ? ItemLabel.name(of: items[index]) : nil) ?? "item \(index + 1)"
        }
        // The name gets at most half the line; the kind what is left of it.
        let nameWidth = min(names.map(\.visibleWidth).max() ?? 0, max(8, style.width / 2 - 2))
        let kindWidth = max(4, style.width - nameWidth - 4)
        for (index, (name, kind)) in zip(names, kinds).enumerated() {
            let shown = name.truncated(to: nameWidth)
            let said = leftOut.contains(index) ? "left out" : kind.description
            text += "  " + shown.padded(to: nameWidth) + "  " + style.dim(said.truncated(to: kindWidth)) + "\n"
        }
        if count > shownCount {
            text += "  " + style.dim("… and \(count - shownCount) more") + "\n"
        }
        return text
    }

    /// A labelled row: entries separated by three spaces, wrapped under the first entry.
    static func row(label: String, entries: [String], width: Int, style: TerminalStyle) -> String {
        let indent = 10
        let lead = style.bold(label).padded(to: indent)
        guard !entries.isEmpty else { return lead + style.dim("(none)") + "\n" }
        // An entry wider than what is left of a line is cut, so no line wraps on its own.
        let entries = entries.map { $0.truncated(to: max(4, width - indent)) }
        var lines: [String] = []
        var current = lead
        var currentHasEntry = false
        for entry in entries {
            let candidate = currentHasEntry ? current + "   " + entry : current + entry
            if currentHasEntry, candidate.visibleWidth > width {
                lines.append(current)
                current = String(repeating: " ", count: indent) + entry
            } else {
                current = candidate
            }
            currentHasEntry = true
        }
        lines.append(current)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Finds the choice a person typed: a number (suggestions first), a suggestion's id or
    /// phrase, an activity's command name, title or raw type (case-insensitive), or an
    /// unambiguous start of one of those names.
    public static func match(_ typed: String, in choices: [SheetChoice], names: ActivityNames = .catalog) -> SheetChoice? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if let number = Int(text) {
            return choices.indices.contains(number - 1) ? choices[number - 1] : nil
        }
        let activities = choices.compactMap(\.activity)
        if let activity = match(text, in: activities, names: names) { return .activity(activity) }
        let lowered = text.lowercased()
        guard !lowered.isEmpty else { return nil }
        let suggestions = choices.filter { $0.activity == nil }
        if let exact = suggestions.first(where: { $0.words(names).contains(lowered) }) { return exact }
        let starts = suggestions.filter { $0.words(names).contains { $0.hasPrefix(lowered) } }
        return starts.count == 1 ? starts[0] : nil
    }

    /// Finds the activity a person typed: a number, a command name, a title or a raw type
    /// (case-insensitive), or an unambiguous start of a command name or title.
    public static func match(_ typed: String, in activities: [Activity], names: ActivityNames = .catalog) -> Activity? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if let number = Int(text) {
            return activities.indices.contains(number - 1) ? activities[number - 1] : nil
        }
        let lowered = text.lowercased()
        let exact = activities.first { activity in
            let entry = names.entry(for: activity)
            return [entry.name, entry.title, entry.activityType].contains { $0.lowercased() == lowered }
        }
        if let exact { return exact }
        guard !lowered.isEmpty else { return nil }
        let starts = activities.filter { activity in
            let shown = names.shown(activity)
            return [shown.commandName, shown.title].contains { $0?.lowercased().hasPrefix(lowered) ?? false }
        }
        return starts.count == 1 ? starts[0] : nil
    }
}
