import CGtk
import ShareSheet
import Sharing

/// The sheet itself: the header with the items' preview, a filter, the suggested people, devices
/// and applications as round avatars, the share row and the action row as icon buttons in the
/// controller's order, and the activities that are not offered behind a "Not available" expander
/// with their reasons.
@MainActor
final class SheetPage {
    let widget: Widget
    /// The header's second line ("3 files, 12 MB").
    let subtitle: String?

    private let filter: Widget
    /// Kept: it puts the thumbnails in when gdk-pixbuf has scaled them, and takes the choices.
    private let header: HeaderView
    private var buttons: [(activity: Activity, title: String, button: Widget)] = []
    private var rows: [(scroller: Widget, heading: Widget, titles: [String])] = []
    private var noMatch: Widget
    /// Holds the rows and "Not available", drawn again when the items sent change.
    private let rowsBox: Widget
    private var suggestionRow: SuggestionRow
    /// The page's column, where a new suggestion row replaces the old one.
    private let column: Widget
    private let names: ActivityNames
    private var activities: [Activity]
    private let pick: (Activity) -> Void
    private let pickSuggestion: (ActivitySuggestion) -> Void

    /// - Parameters:
    ///   - choosing: where the header's choices about what is sent go.
    ///   - pick: runs with the activity the person picked.
    ///   - pickSuggestion: runs with the suggestion the person picked.
    init(
        sheet: ActivitySheet, names: ActivityNames, choosing: ItemChoosing, pick: @escaping (Activity) -> Void,
        pickSuggestion: @escaping (ActivitySuggestion) -> Void
    ) {
        self.pick = pick
        self.pickSuggestion = pickSuggestion
        self.names = names
        activities = sheet.activities
        header = HeaderView(previews: sheet.previews, choosing: choosing)
        subtitle = header.summary
        let page = Widgets.vertical(spacing: 12)
        column = page
        Widgets.margins(page, 12)
        Widgets.append(page, header.widget)

        filter = gtk_search_entry_new()
        // GTK 4.8 has the property but not yet its setter.
        cg_set_string_property(filter, "placeholder-text", "Filter activities")
        cg_set_accessible_label(filter, "Filter activities")
        Widgets.append(page, filter)
        suggestionRow = SuggestionRow(
            suggestions: sheet.suggestions, activities: sheet.activities, names: names, pick: { pickSuggestion($0) })
        Widgets.append(page, suggestionRow.widget)

        noMatch = Widgets.label("No activity matches", classes: ["dim-label"], centered: true)
        rowsBox = Widgets.vertical(spacing: 12)
        Widgets.append(page, rowsBox)
        widget = Widgets.scroller(page, horizontal: false)
        showRows(sheet)

        header.onSheetChange = { [weak self] sheet in self?.showChanged(sheet) }
        Signals.connect(filter, "search-changed") { [weak self] in self?.applyFilter() }
        // Enter in the filter picks the first thing still shown, in reading order: a suggestion
        // above the rows ("ana", Enter: Mail to Ana), else the first activity.
        Signals.connect(filter, "activate") { [weak self] in
            guard let self else { return }
            if let suggestion = self.suggestionRow.firstShown?.suggestion { return self.pickSuggestion(suggestion) }
            guard let first = self.buttons.first(where: { gtk_widget_get_visible($0.button) != 0 }) else { return }
            self.pick(first.activity)
        }
    }

    /// Draws the share row, the action row and "Not available" for `sheet` in the rows' box,
    /// in place of what was there.
    private func showRows(_ sheet: ActivitySheet) {
        Widgets.removeChildren(rowsBox)
        buttons = []
        rows = []
        // Made again each time: removing a widget from its box lets it go.
        noMatch = Widgets.label("No activity matches", classes: ["dim-label"], centered: true)
        Widgets.show(noMatch, false)
        let pick = self.pick
        for (heading, row) in [("Share", sheet.shareRow), ("Actions", sheet.actionRow)] where !row.isEmpty {
            let label = Widgets.label(heading, classes: ["heading"])
            let box = Widgets.horizontal(spacing: 4)
            var titles: [String] = []
            for activity in row {
                let entry = names.entry(for: activity)
                let button = Widgets.iconButton(
                    title: entry.title, icon: Self.icon(for: activity, named: entry.iconName),
                    action: { pick(activity) })
                Widgets.append(box, button)
                buttons.append((activity, entry.title, button))
                titles.append(entry.title)
            }
            let scroller = Widgets.scroller(box, horizontal: true)
            Widgets.append(rowsBox, label, scroller)
            rows.append((scroller, label, titles))
        }
        Widgets.append(rowsBox, noMatch)
        if sheet.activities.isEmpty {
            // Every item left out is a choice the person can undo; say how.
            let nothing = sheet.previews.isEmpty || header.sendsNothing
                ? "Check an item above to see what can share it." : "Nothing here can act on these items."
            Widgets.append(rowsBox, Widgets.label(nothing, classes: ["dim-label"], wraps: true))
        }
        if !sheet.unavailable.isEmpty {
            Widgets.append(rowsBox, Self.unavailableList(sheet, names: names))
        }
    }

    /// The sheet made again for the items now sent: its rows and suggestions replace the old
    /// ones and the filter still applies. The focus stays where it is, on the item's check.
    private func showChanged(_ sheet: ActivitySheet) {
        activities = sheet.activities
        showRows(sheet)
        showSuggestions(sheet.suggestions)
    }

    /// Draws the suggestions again after they changed (a device came into range): the new row
    /// takes the old one's place, keeps what the filter shows, and keeps the focus on the
    /// avatar that had it, so a person moving along the row is not moved.
    func showSuggestions(_ suggestions: [ActivitySuggestion]) {
        let focused = suggestionRow.avatars.first { gtk_widget_has_focus($0.widget) != 0 }?.suggestion.id
        let old = suggestionRow.widget
        suggestionRow = SuggestionRow(
            suggestions: suggestions, activities: activities, names: names, pick: { [pickSuggestion] in pickSuggestion($0) })
        gtk_box_insert_child_after(cg_box(column), suggestionRow.widget, old)
        gtk_box_remove(cg_box(column), old)
        applyFilter()
        if let focused {
            let avatar = suggestionRow.avatars.first { $0.suggestion.id == focused } ?? suggestionRow.firstShown
            if let avatar { gtk_widget_grab_focus(avatar.widget) } else { focusFirstActivity() }
        }
    }

    /// Lets typing anywhere in `window` go to the filter (type-to-filter).
    func captureTyping(in window: Widget) {
        gtk_search_entry_set_key_capture_widget(OpaquePointer(filter), window)
    }

    /// Stops sending typing to the filter (the page is leaving).
    func stopCapturingTyping() {
        gtk_search_entry_set_key_capture_widget(OpaquePointer(filter), nil)
    }

    /// Focuses the first suggestion, the likeliest pick, else the first activity.
    func focusFirstActivity() {
        if let suggestion = suggestionRow.firstShown {
            gtk_widget_grab_focus(suggestion.widget)
        } else if let first = buttons.first {
            gtk_widget_grab_focus(first.button)
        } else {
            gtk_widget_grab_focus(filter)
        }
    }

    private func applyFilter() {
        let typed = String(cString: gtk_editable_get_text(cg_editable(filter))).trimmingCharacters(in: .whitespaces)
        for entry in buttons {
            Widgets.show(entry.button, typed.isEmpty || entry.title.localizedCaseInsensitiveContains(typed))
        }
        var anyShown = false
        for row in rows {
            let shown = row.titles.contains { typed.isEmpty || $0.localizedCaseInsensitiveContains(typed) }
            Widgets.show(row.scroller, shown)
            Widgets.show(row.heading, shown)
            anyShown = anyShown || shown
        }
        let anySuggested = suggestionRow.filter(typed)
        Widgets.show(noMatch, !anyShown && !anySuggested && !buttons.isEmpty)
    }

    private static func icon(for activity: Activity, named name: String) -> Widget {
        Widgets.themedIcon(name, size: 32)
    }

    /// "Not available" with each activity's reason under it. The reasons are laid out only when
    /// the expander is first opened: wrapped labels cost time to measure, and the window should
    /// be up as soon as its rows are.
    /// A reason whose facts name a fix is followed by the plain sentence for it ("Add an
    /// account for flickr in the accounts settings.").
    private static func unavailableList(_ sheet: ActivitySheet, names: ActivityNames) -> Widget {
        let lines = sheet.unavailable.map { entry in
            let line = "\(names.entry(for: entry.activity).title): \(entry.reason)"
            guard let why = sheet.unavailableFixes[ObjectIdentifier(entry.activity)],
                let advice = PlainAdvice.sentence(fix: why.fix, setting: why.setting, path: why.path)
            else { return line }
            return "\(line). \(advice)"
        }
        let expander = gtk_expander_new("Not available")!
        cg_set_accessible_label(expander, "Not available")
        var filled = false
        Signals.connectNotify(expander, property: "expanded") {
            guard !filled, gtk_expander_get_expanded(cg_expander(expander)) != 0 else { return }
            filled = true
            let list = Widgets.vertical(spacing: 6)
            gtk_widget_set_margin_top(list, 6)
            for line in lines { Widgets.append(list, Widgets.label(line, classes: ["dim-label"], wraps: true)) }
            gtk_expander_set_child(cg_expander(expander), list)
        }
        return expander
    }
}
