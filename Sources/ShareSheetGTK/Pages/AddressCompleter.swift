import CGtk
import ShareSheet

/// The contacts whose name or address starts with what is typed into an address entry (Mail's
/// To, Message's To), listed under it as the person types: each a row with the face, the name
/// and the address. Down moves from the entry into the list, Enter on a row (or a click) puts
/// its address in place of the word being typed, and Enter in the entry takes the first row
/// while what is typed is not an address yet. The list lives in the page rather than a popover,
/// so it never covers the next field and assistive technology reads it in place.
@MainActor
final class AddressCompleter {
    /// The list; hidden, taking no space, while nothing matches.
    let widget: Widget

    private let entry: Widget
    private let kind: AddressKind
    private let complete: @MainActor (String) -> [AddressCompletion]
    private var shown: [AddressCompletion] = []
    private var rows: [Widget] = []
    /// Set while the entry's text is replaced by a pick, so the change does not list again.
    private var filling = false

    /// - Parameters:
    ///   - entry: the address entry, whose "changed" and keys the completer follows.
    ///   - kind: the sort of address the entry takes.
    ///   - complete: the completions for the entry's whole text (the controller's).
    init(entry: Widget, kind: AddressKind, complete: @escaping @MainActor (String) -> [AddressCompletion]) {
        self.entry = entry
        self.kind = kind
        self.complete = complete
        widget = Widgets.vertical(spacing: 0)
        gtk_widget_add_css_class(widget, "card")
        Widgets.show(widget, false)
        cg_set_accessible_label(widget, "Contacts")

        Signals.connect(entry, "changed") { [weak self] in self?.entryChanged() }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] key, _ in
            guard let self, !self.shown.isEmpty else { return false }
            switch Int32(key) {
            case GDK_KEY_Down, GDK_KEY_KP_Down:
                gtk_widget_grab_focus(self.rows[0])
                return true
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
                // Enter sends the form once the addresses are whole; until then it completes.
                guard !self.lastWordIsAddress else { return false }
                self.pick(self.shown[0])
                return true
            default:
                return false
            }
        }
        gtk_widget_add_controller(entry, keys)
    }

    /// True while contacts are listed under the entry.
    var isListing: Bool { !shown.isEmpty }

    /// Closes the list (Escape while it shows) and gives the entry the focus back; false when
    /// nothing was listed.
    func closeList() -> Bool {
        guard isListing else { return false }
        show([])
        gtk_widget_grab_focus(entry)
        gtk_editable_set_position(cg_editable(entry), -1)
        return true
    }

    /// The entry's text.
    private var text: String { String(cString: gtk_editable_get_text(cg_editable(entry))) }

    /// The words after the last comma: what the completions are for.
    private var lastWord: String {
        (text.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces)
    }

    private var lastWordIsAddress: Bool {
        kind == .email ? EmailAddress.isValid(lastWord) : PhoneNumber.isValid(lastWord)
    }

    private func entryChanged() {
        guard !filling else { return }
        let found = complete(text).filter { $0.fieldText != lastWord && $0.address != lastWord }
        show(found)
    }

    /// Draws `completions` as rows, or hides the list when there are none.
    private func show(_ completions: [AddressCompletion]) {
        guard completions != shown else { return }
        shown = completions
        rows = []
        Widgets.removeChildren(widget)
        for (index, completion) in completions.enumerated() {
            if index > 0 { Widgets.append(widget, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!) }
            let row = Self.row(for: completion) { [weak self] in self?.pick(completion) }
            rows.append(row)
            Widgets.append(widget, row)
        }
        Widgets.show(widget, !completions.isEmpty)
    }

    /// A flat button: the face, the name over the address; named "Bo Berg, bo@example.com".
    private static func row(for completion: AddressCompletion, pick: @escaping @MainActor () -> Void) -> Widget {
        let words = Widgets.vertical(spacing: 0)
        gtk_widget_set_valign(words, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(words, 1)
        Widgets.append(
            words, Widgets.label(completion.name.isEmpty ? completion.address : completion.name),
            Widgets.label(completion.address, classes: ["dim-label", "caption"]))
        let content = Widgets.horizontal(spacing: 10)
        Widgets.append(content, PersonFace.make(name: completion.name, photoPath: completion.photoPath), words)
        let button = gtk_button_new()!
        gtk_button_set_child(cg_button(button), content)
        gtk_widget_add_css_class(button, "flat")
        let spoken = completion.name.isEmpty ? completion.address : "\(completion.name), \(completion.address)"
        cg_set_accessible_label(button, spoken)
        Signals.connect(button, "clicked", pick)
        return button
    }

    /// Puts `completion` in place of the word being typed, keeps the addresses before it, and
    /// returns the focus to the end of the entry to type the next one.
    private func pick(_ completion: AddressCompletion) {
        var words = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if words.isEmpty { words = [""] }
        words[words.count - 1] = completion.fieldText
        filling = true
        gtk_editable_set_text(cg_editable(entry), words.filter { !$0.isEmpty }.joined(separator: ", "))
        filling = false
        show([])
        gtk_widget_grab_focus(entry)
        gtk_editable_set_position(cg_editable(entry), -1)
    }
}
