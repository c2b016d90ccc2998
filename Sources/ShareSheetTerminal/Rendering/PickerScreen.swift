import ShareSheet
import Sharing

/// The text of the arrow-key picker: a filter line and the activities that match it, one per
/// line, the selected one marked. Each line is cut to the width so the picker can be redrawn
/// by counting lines.
@MainActor
public enum PickerScreen {
    /// The activities that match `filter`, with their numbers on the sheet (from 1): every
    /// activity when it is empty; by number when it is digits; else those whose title or
    /// command name contains it (case-insensitive), those that start with it first.
    public static func matches(
        _ filter: String, in activities: [Activity], names: ActivityNames = .catalog
    ) -> [(number: Int, activity: Activity)] {
        matches(filter, among: activities.map(SheetChoice.activity), names: names).compactMap { entry in
            entry.choice.activity.map { (number: entry.number, activity: $0) }
        }
    }

    /// The choices that match `filter` (suggestions first, then activities), with their
    /// numbers on the sheet, as `matches(_:in:names:)` finds activities; a suggestion is found
    /// by its phrase ("Mail to Ana Lima"), its title or its id.
    public static func matches(
        _ filter: String, among choices: [SheetChoice], names: ActivityNames = .catalog
    ) -> [(number: Int, choice: SheetChoice)] {
        let numbered = choices.enumerated().map { (number: $0.offset + 1, choice: $0.element) }
        let wanted = filter.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return numbered }
        if wanted.allSatisfy(\.isNumber) {
            return numbered.filter { String($0.number).hasPrefix(wanted) }
        }
        // A name typed whole comes first: "mail" is Mail itself before "Mail to Ana".
        let exact = numbered.filter { entry in entry.choice.words(names).contains(wanted) }
        let starting = numbered.filter { entry in
            let words = entry.choice.words(names)
            return !words.contains(wanted) && words.contains { $0.hasPrefix(wanted) }
        }
        let containing = numbered.filter { entry in
            let words = entry.choice.words(names)
            return !words.contains { $0.hasPrefix(wanted) } && words.contains { $0.contains(wanted) }
        }
        return exact + starting + containing
    }

    /// The picker's lines (without line ends): a hint, the filter, then the matches.
    public static func lines(
        filter: String, matches: [(number: Int, activity: Activity)], selected: Int, style: TerminalStyle,
        names: ActivityNames = .catalog
    ) -> [String] {
        lines(
            filter: filter, choices: matches.map { (number: $0.number, choice: SheetChoice.activity($0.activity)) },
            selected: selected, style: style, names: names)
    }

    /// The picker's lines for choices: a suggestion shows as "1 Mail to Ana Lima (ana@example.com)".
    public static func lines(
        filter: String, choices matches: [(number: Int, choice: SheetChoice)], selected: Int, style: TerminalStyle,
        names: ActivityNames = .catalog
    ) -> [String] {
        // Every line is cut, the hint and the filter too: a line the terminal wraps would take
        // two rows, and the redraw would leave a copy behind at each key.
        let width = style.width - 1
        var lines = [style.dim("↑/↓ choose, Enter picks, type to filter, Esc cancels".truncated(to: width))]
        lines.append(("Filter: " + filter).truncated(to: width))
        if matches.isEmpty { lines.append(style.dim("  (nothing matches '\(filter)')".truncated(to: width))) }
        // On a short screen only a window around the selection is shown, so the picker can
        // always be redrawn from its first line.
        var shown = matches.indices
        if let rows = style.rows, matches.count > rows - 5 {
            let room = max(3, rows - 5)
            let start = max(0, min(selected - room / 2, matches.count - room))
            shown = start..<min(matches.count, start + room)
        }
        if shown.lowerBound > 0 { lines.append(style.dim("  ↑ \(shown.lowerBound) more".truncated(to: width))) }
        for index in shown {
            let entry = matches[index]
            let shown = entry.choice.shown(names)
            var text = String(entry.number) + " " + shown.title
            if let detail = shown.detail { text += " (\(detail))" }
            let line = index == selected ? "› " + text : "  " + text
            // One column is kept free so a full line never makes the terminal wrap.
            let cut = line.truncated(to: width)
            lines.append(index == selected && style.usesColor ? "\u{1B}[7m" + cut + "\u{1B}[27m" : cut)
        }
        if shown.upperBound < matches.count {
            lines.append(style.dim("  ↓ \(matches.count - shown.upperBound) more".truncated(to: width)))
        }
        return lines
    }
}
