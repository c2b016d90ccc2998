import CGtk
import ShareSheet
import Sharing

/// The sheet itself: the header with the items' preview, a filter, the suggested people, devices
/// and applications as round avatars, the share row and the action row as grids of icon buttons
/// in the controller's order, and the activities that are not offered behind a "Not available"
/// expander with their reasons. The page scrolls as a whole: nothing in it scrolls sideways or
/// gives up height to another part.
@MainActor
final class SheetPage {
    let widget: Widget
    /// The header's second line ("3 files, 12 MB").
    let subtitle: String?

    private let filter: Widget
    /// Kept: it puts the thumbnails in when gdk-pixbuf has scaled them, and takes the choices.
    private let header: HeaderView
    /// The share row, then the action row: each a section with a heading over its grid.
    private var rows: [(section: Widget, grid: ActivityGrid)] = []
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
        // The focus sits in the entry's inner text widget while the person types: name it too,
        // or a screen reader announces a nameless text field.
        if let text = gtk_editable_get_delegate(cg_editable(filter)) {
            cg_set_accessible_label(UnsafeMutableRawPointer(text), "Filter activities")
        }
        Widgets.append(page, filter)
        suggestionRow = SuggestionRow(
            suggestions: sheet.suggestions, activities: sheet.activities, names: names, pick: { pickSuggestion($0) })
        Widgets.append(page, suggestionRow.widget)

        noMatch = Widgets.label("No activity matches", classes: ["dim-label"], centered: true)
        rowsBox = Widgets.vertical(spacing: 8)
        Widgets.append(page, rowsBox)
        widget = Widgets.scroller(page, horizontal: false, name: "Share sheet")
        showRows(sheet)

        header.onSheetChange = { [weak self] sheet in self?.showChanged(sheet) }
        Signals.connect(filter, "search-changed") { [weak self] in self?.applyFilter() }
        // Typing anywhere starts a search (`captureTyping`) but leaves the focus where it was,
        // on an activity the filter may be about to hide, and Enter would act on that activity.
        // The focus follows the typing into the filter, keeping the caret after what was typed.
        Signals.connect(filter, "search-started") { [filter] in
            guard let text = gtk_editable_get_delegate(cg_editable(filter)) else { return }
            gtk_text_grab_focus_without_selecting(UnsafeMutablePointer<GtkText>(text))
        }
        // Enter in the filter picks the first thing the typed text leaves, in reading order: a
        // suggestion above the rows ("ana", Enter: Mail to Ana), else the first activity. It is
        // worked out from the text itself: the entry applies the filter on screen only after a
        // pause, and "contact" typed fast then Enter means Assign to Contact, not whatever was
        // first before.
        Signals.connect(filter, "activate") { [weak self] in
            guard let self else { return }
            let typed = self.typed
            self.applyFilter()
            if let suggestion = self.suggestionRow.firstMatch(typed)?.suggestion { return self.pickSuggestion(suggestion) }
            guard let first = self.rows.lazy.compactMap({ $0.grid.firstMatch(typed) }).first else { return }
            self.pick(first.activity)
        }
    }

    /// Draws the share row, the action row and "Not available" for `sheet` in the rows' box,
    /// in place of what was there.
    private func showRows(_ sheet: ActivitySheet) {
        Widgets.removeChildren(rowsBox)
        rows = []
        // Made again each time: removing a widget from its box lets it go.
        noMatch = Widgets.label("No activity matches", classes: ["dim-label"], centered: true)
        Widgets.show(noMatch, false)
        let pick = self.pick
        for (heading, row) in [("Share", sheet.shareRow), ("Actions", sheet.actionRow)] where !row.isEmpty {
            // The heading sits close over its own grid, further from the one before.
            let section = Widgets.vertical(spacing: 2)
            let grid = ActivityGrid(heading: heading, activities: row, names: names, pick: { pick($0) })
            Widgets.append(section, Widgets.label(heading, classes: ["heading"]), grid.widget)
            Widgets.append(rowsBox, section)
            rows.append((section, grid))
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
        } else if let first = rows.first?.grid.firstShown {
            gtk_widget_grab_focus(first.button)
        } else {
            gtk_widget_grab_focus(filter)
        }
    }

    /// What the person typed in the filter, without the spaces around it.
    private var typed: String {
        String(cString: gtk_editable_get_text(cg_editable(filter))).trimmingCharacters(in: .whitespaces)
    }

    private func applyFilter() {
        let typed = self.typed
        var anyShown = false
        for row in rows {
            let shown = row.grid.filter(typed)
            Widgets.show(row.section, shown)
            anyShown = anyShown || shown
        }
        let anySuggested = suggestionRow.filter(typed)
        Widgets.show(noMatch, !anyShown && !anySuggested && !rows.isEmpty)
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
