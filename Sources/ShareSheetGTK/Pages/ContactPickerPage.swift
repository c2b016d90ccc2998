import CGtk
import ShareSheet

/// Assign to Contact's own page (SPEC §7, "designed, not generated"): a search entry over the
/// contacts of the vCard folder, each a row with the face (the card's photo, else initials),
/// the name and the address; typing narrows the list, a click or Enter on a row gives that
/// contact the picture, and a name that matches nobody offers a new contact by that name.
///
/// The page only draws the activity's interface: the contacts are the suggested values of its
/// text field, and picking one hands the field that value, as typing it into the form would.
@MainActor
final class ContactPickerPage {
    let widget: Widget

    private let field: InterfaceField
    private let submit: @MainActor (InterfaceValues) -> [String: String]
    private let cancelAction: @MainActor () -> Void
    private let backAction: (@MainActor () -> Void)?
    private var finished = false

    private let search: Widget
    private let list: Widget
    private let nothingFound: Widget
    private let newContact: Widget
    private let problem: Widget
    /// Every contact's row, in the list's order, with the words a search matches.
    private var rows: [(option: ChoiceOptions.Option, button: Widget, separator: Widget?, words: [String])] = []

    /// The interface's one text field with contacts to pick from, when it has one: what this page is for.
    static func contactField(of interface: ActivityInterface) -> InterfaceField? {
        guard interface.fields.count == 1, let field = interface.fields.first, case .text = field.kind else { return nil }
        return field
    }

    /// - Parameters:
    ///   - interface: Assign to Contact's interface.
    ///   - submit: hands the values to the controller; returns the problems it found.
    ///   - back: returns to the sheet; nil when there is no sheet to return to.
    ///   - cancel: ends the share.
    init?(
        interface: ActivityInterface, submit: @escaping @MainActor (InterfaceValues) -> [String: String],
        back: (@MainActor () -> Void)?, cancel: @escaping @MainActor () -> Void
    ) {
        guard let field = Self.contactField(of: interface) else { return nil }
        self.field = field
        self.submit = submit
        backAction = back
        cancelAction = cancel

        let page = Widgets.vertical(spacing: 12)
        Widgets.margins(page, 18)
        search = gtk_search_entry_new()!
        cg_set_accessible_label(search, "Search contacts")
        cg_set_string_property(search, "placeholder-text", "Search contacts")
        gtk_widget_set_hexpand(search, 1)
        if let preset = field.defaultValue?.text, !preset.isEmpty { gtk_editable_set_text(cg_editable(search), preset) }

        list = Widgets.vertical(spacing: 0)
        gtk_widget_add_css_class(list, "card")
        nothingFound = Widgets.label("", classes: ["dim-label"], wraps: true, centered: true)
        gtk_widget_set_margin_top(nothingFound, 12)
        let newRelay = ActionRelay()
        newContact = Widgets.button("New Contact", classes: ["pill"]) { newRelay.run() }
        gtk_widget_set_halign(newContact, GTK_ALIGN_CENTER)
        problem = Widgets.label("", classes: ["error"], wraps: true)
        Widgets.show(problem, false)
        Widgets.append(
            page, search, list, nothingFound, newContact,
            Widgets.label("The picture becomes the contact's photo in your address book.", classes: ["dim-label", "caption"], wraps: true),
            problem)
        let (column, backRelay, cancelRelay) = LeavingButtons.column(scrolling: page, canGoBack: back != nil)
        widget = column

        for option in field.suggestedValues { addRow(option) }
        newRelay.action = { [weak self] in self?.pickNew() }
        backRelay.action = { [weak self] in self?.back() }
        cancelRelay.action = { [weak self] in self?.cancel() }
        Signals.connect(search, "changed") { [weak self] in self?.filter() }
        Signals.connect(search, "activate") { [weak self] in self?.pickFirst() }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] key, _ in
            guard let self, Int32(key) == GDK_KEY_Down || Int32(key) == GDK_KEY_KP_Down,
                let first = self.visibleRows.first
            else { return false }
            gtk_widget_grab_focus(first.button)
            return true
        }
        gtk_widget_add_controller(search, keys)
        filter()
    }

    /// The search's text, trimmed.
    private var query: String {
        String(cString: gtk_editable_get_text(cg_editable(search))).trimmingCharacters(in: .whitespaces)
    }

    private var visibleRows: [(option: ChoiceOptions.Option, button: Widget, separator: Widget?, words: [String])] {
        rows.filter { gtk_widget_get_visible($0.button) != 0 }
    }

    /// A flat button: the face, the name over the address; named after the contact.
    private func addRow(_ option: ChoiceOptions.Option) {
        let separator: Widget? = rows.isEmpty ? nil : gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)
        if let separator { Widgets.append(list, separator) }
        let words = Widgets.vertical(spacing: 0)
        gtk_widget_set_valign(words, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(words, 1)
        Widgets.append(words, Widgets.label(option.title))
        if let detail = option.detail { Widgets.append(words, Widgets.label(detail, classes: ["dim-label", "caption"])) }
        let content = Widgets.horizontal(spacing: 12)
        Widgets.margins(content, 4)
        Widgets.append(content, PersonFace.make(name: option.title, photoPath: option.imagePath, size: 40), words)
        let button = gtk_button_new()!
        gtk_button_set_child(cg_button(button), content)
        gtk_widget_add_css_class(button, "flat")
        cg_set_accessible_label(button, option.title)
        if let detail = option.detail { cg_set_accessible_description(button, detail) }
        Signals.connect(button, "clicked") { [weak self] in self?.pick(option.id) }
        Widgets.append(list, button)
        let searchable = ([option.title] + option.title.split(whereSeparator: \.isWhitespace).map(String.init) + [option.detail].compactMap { $0 })
        rows.append((option, button, separator, searchable))
    }

    /// Shows the contacts a word of whose name, or whose address, starts with the search (all
    /// of them for no search), and says so when none does.
    private func filter() {
        Widgets.show(problem, false)
        let typed = query
        var shown = 0
        for row in rows {
            let matches =
                typed.isEmpty
                || row.words.contains { $0.range(of: typed, options: [.caseInsensitive, .diacriticInsensitive, .anchored]) != nil }
            Widgets.show(row.button, matches)
            if let separator = row.separator { Widgets.show(separator, matches && shown > 0) }
            if matches { shown += 1 }
        }
        // The first shown row has no line above it.
        if let first = visibleRows.first, let separator = first.separator { Widgets.show(separator, false) }
        Widgets.show(list, shown > 0)
        if rows.isEmpty {
            Widgets.setText(nothingFound, "Your address book has no contacts yet. Type a name to make a new contact with this picture.")
        } else {
            Widgets.setText(nothingFound, "No contact matches “\(typed)”.")
        }
        Widgets.show(nothingFound, shown == 0 && (!typed.isEmpty || rows.isEmpty))
        gtk_button_set_label(cg_button(newContact), "New Contact “\(typed)”")
        cg_set_accessible_label(newContact, "New Contact “\(typed)”")
        Widgets.show(newContact, shown == 0 && !typed.isEmpty)
    }

    /// Enter in the search: the first contact shown, else a new contact by the typed name.
    private func pickFirst() {
        if let first = visibleRows.first { pick(first.option.id) } else { pickNew() }
    }

    private func pickNew() {
        let typed = query
        guard !typed.isEmpty else { return }
        pick(typed)
    }

    private func pick(_ value: String) {
        guard !finished else { return }
        let problems = submit([field.id: .text(value)])
        if problems.isEmpty {
            finished = true
            return
        }
        let message = problems[field.id] ?? problems.sorted { $0.key < $1.key }.first?.value ?? ""
        Widgets.setText(problem, Sentence.of(message))
        Widgets.show(problem, true)
    }

    /// The search, to type a name at once.
    func focus() { gtk_widget_grab_focus(search) }

    /// Cancels the share (Cancel, Escape, the close button).
    func cancel() {
        guard !finished else { return }
        finished = true
        cancelAction()
    }

    private func back() {
        guard !finished, let backAction else { return }
        finished = true
        backAction()
    }
}
