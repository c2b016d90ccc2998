import CGtk
import ShareSheet

/// One field of an activity's form: its input, its help, and the problem under it.
@MainActor
final class FieldView {
    let field: InterfaceField
    let widget: Widget
    /// Runs after every edit.
    var onChange: () -> Void = {}
    /// Runs on Enter in a one-line input.
    var onActivate: () -> Void = {}
    /// True once the person edited the field: its problems show from then on.
    private(set) var wasEdited = false

    private let problem: Widget
    private var input: Input
    /// "487 characters left" under a text with a limit, counted as the receiver counts.
    private var counter: Widget?

    /// The control a field is entered with.
    private enum Input {
        case entry(Widget)
        case textView(Widget)
        case toggle(Widget)
        case number(Widget)
        case choice(ChoiceList)
    }

    /// The contacts listed under an address entry as the person types, when it completes.
    private var completer: AddressCompleter?

    /// Closes the contacts listed under the field, if any; true when there were.
    func closeCompletions() -> Bool { completer?.closeList() ?? false }

    /// - Parameters:
    ///   - field: the field to draw.
    ///   - complete: the contacts that complete an address field's text (the controller's
    ///     `completions(for:typed:)`); nil, or a field that takes no addresses, completes nothing.
    init(_ field: InterfaceField, complete: (@MainActor (InterfaceField, String) -> [AddressCompletion])? = nil) {
        self.field = field
        widget = Widgets.vertical(spacing: 4)
        problem = Widgets.label("", classes: ["error", "caption"], wraps: true)
        Widgets.show(problem, false)
        input = .entry(widget)  // replaced below; every case sets it
        switch field.kind {
        case .text, .emailAddresses, .phoneNumbers:
            let entry = gtk_entry_new()!
            if let value = field.defaultValue { gtk_editable_set_text(cg_editable(entry), value.text) }
            if let help = field.help { gtk_entry_set_placeholder_text(cg_entry(entry), help) }
            if field.isSecret { gtk_entry_set_visibility(cg_entry(entry), 0) }
            input = .entry(entry)
            attach(entry, labelled: true)
            if let complete, let kind = field.kind.addressKind {
                gtk_entry_set_input_purpose(cg_entry(entry), kind == .email ? GTK_INPUT_PURPOSE_EMAIL : GTK_INPUT_PURPOSE_PHONE)
                let completer = AddressCompleter(entry: entry, kind: kind) { text in complete(field, text) }
                Widgets.append(widget, completer.widget)
                self.completer = completer
            }
            Signals.connect(entry, "changed") { [weak self] in self?.edited() }
            Signals.connect(entry, "activate") { [weak self] in self?.onActivate() }
        case .multilineText:
            let view = gtk_text_view_new()!
            gtk_text_view_set_wrap_mode(cg_text_view(view), GTK_WRAP_WORD_CHAR)
            gtk_text_view_set_accepts_tab(cg_text_view(view), 0)
            Widgets.margins(view, 6)
            let buffer = gtk_text_view_get_buffer(cg_text_view(view))
            if let value = field.defaultValue { gtk_text_buffer_set_text(buffer, value.text, -1) }
            let scroller = Widgets.scroller(view, horizontal: false)
            gtk_scrolled_window_set_min_content_height(cg_scrolled(scroller), 120)
            gtk_widget_add_css_class(scroller, "card")
            input = .textView(view)
            attach(view, labelled: true, container: scroller)
            Signals.connect(buffer.map(UnsafeMutableRawPointer.init), "changed") { [weak self] in self?.edited() }
        case .toggle:
            let check = gtk_check_button_new_with_label(field.label)!
            if case .bool(true) = field.defaultValue { gtk_check_button_set_active(cg_check(check), 1) }
            input = .toggle(check)
            cg_set_accessible_label(check, field.label)
            Widgets.append(widget, check)
            Signals.connect(check, "toggled") { [weak self] in self?.edited() }
        case .integer(let range):
            let spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)!
            if case .integer(let number) = field.defaultValue { gtk_spin_button_set_value(cg_spin(spin), Double(number)) }
            input = .number(spin)
            attach(spin, labelled: true)
            Signals.connect(spin, "value-changed") { [weak self] in self?.edited() }
        case .choice(let options):
            let list = ChoiceList(options: options, label: field.label, selected: field.defaultValue)
            list.onChange = { [weak self] in self?.edited() }
            input = .choice(list)
            attach(list.widget, labelled: true, accessibleName: false)
        }
        if let limit = field.textLimit {
            // The count and the help share a line: the help on the left, the count on the right.
            let line = Widgets.horizontal(spacing: 12)
            let help = Widgets.label(field.help ?? "", classes: ["dim-label", "caption"], wraps: true)
            gtk_widget_set_hexpand(help, 1)
            let counter = Widgets.label("", classes: ["caption", "numeric"])
            // The count is read whole; the help beside it wraps instead.
            gtk_label_set_ellipsize(cg_label(counter), PANGO_ELLIPSIZE_NONE)
            gtk_widget_set_valign(counter, GTK_ALIGN_START)
            Widgets.append(line, help, counter)
            Widgets.append(widget, line)
            self.counter = counter
            count(limit)
        } else if let help = field.help, !field.kind.isToggle, !isChoice {
            // A choice's options say what can be picked; its help is written for typing a value.
            Widgets.append(widget, Widgets.label(help, classes: ["dim-label", "caption"], wraps: true))
        }
        Widgets.append(widget, problem)
    }

    private var isChoice: Bool {
        if case .choice = input { return true }
        return false
    }

    /// Counts the text down from the limit: what is left, or how far over it is, marked.
    private func count(_ limit: TextLimit) {
        guard let counter else { return }
        let remaining = limit.remaining(for: value?.text ?? "")
        let words =
            remaining >= 0
            ? "\(remaining) \(remaining == 1 ? "character" : "characters") left"
            : "\(-remaining) \(remaining == -1 ? "character" : "characters") too many"
        Widgets.setText(counter, words)
        if remaining < 0 {
            gtk_widget_add_css_class(counter, "error")
            gtk_widget_remove_css_class(counter, "dim-label")
        } else {
            gtk_widget_remove_css_class(counter, "error")
            gtk_widget_add_css_class(counter, "dim-label")
        }
    }

    /// The value as entered; nil when nothing is.
    var value: InterfaceValue? {
        switch input {
        case .entry(let entry):
            let text = String(cString: gtk_editable_get_text(cg_editable(entry)))
            return text.isEmpty ? nil : field.value(fromText: text)
        case .textView(let view):
            let buffer = gtk_text_view_get_buffer(cg_text_view(view))
            var start = GtkTextIter()
            var end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let raw = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return nil }
            defer { g_free(raw) }
            let text = String(cString: raw)
            return text.isEmpty ? nil : .text(text)
        case .toggle(let check):
            return .bool(gtk_check_button_get_active(cg_check(check)) != 0)
        case .number(let spin):
            return .integer(Int(gtk_spin_button_get_value_as_int(cg_spin(spin))))
        case .choice(let list):
            return list.selected.map(InterfaceValue.choice)
        }
    }

    /// Shows `message` under the field, or hides the line.
    func show(problem message: String?) {
        // A word being completed is not an address yet: no problem while contacts are offered.
        let message = completer?.isListing == true ? nil : message
        Widgets.setText(problem, message ?? "")
        Widgets.show(problem, message != nil)
    }

    /// Shows problems from now on, even before an edit (after a refused submit).
    func markEdited() { wasEdited = true }

    func focus() {
        switch input {
        case .entry(let widget), .textView(let widget), .toggle(let widget), .number(let widget):
            gtk_widget_grab_focus(widget)
        case .choice(let list):
            list.focus()
        }
    }

    private func edited() {
        wasEdited = true
        if let limit = field.textLimit { count(limit) }
        onChange()
    }

    /// Puts the field's label over `control` and names the control after it.
    private func attach(_ control: Widget, labelled: Bool, container: Widget? = nil, accessibleName: Bool = true) {
        Widgets.append(widget, Widgets.label(field.label, classes: ["heading"]))
        if accessibleName { cg_set_accessible_label(control, field.label) }
        Widgets.append(widget, container ?? control)
    }
}

extension InterfaceField.Kind {
    var isToggle: Bool {
        if case .toggle = self { return true }
        return false
    }
}
