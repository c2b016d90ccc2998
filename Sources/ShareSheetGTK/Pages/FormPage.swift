import CGtk
import ShareSheet

/// An activity's interface as a form: its fields with their problems under them, Cancel, and
/// the submit button (Send, Done…), which is enabled only while the values are valid.
@MainActor
final class FormPage {
    let widget: Widget

    private let interface: ActivityInterface
    private let fields: [FieldView]
    private let submitButton: Widget
    private let generalProblem: Widget
    /// The expander holding the advanced fields, if there are any.
    private let moreFields: Widget?
    private let submit: @MainActor (InterfaceValues) -> [String: String]
    private let cancelAction: @MainActor () -> Void
    private var finished = false
    /// Draws what the values will make beside the fields, when the interface has a preview.
    private let preview: PreviewPane?

    /// - Parameters:
    ///   - submit: hands the values to the controller; returns the problems it found.
    ///   - back: returns to the sheet to pick another activity; nil shows no Back.
    ///   - cancel: cancels the interface.
    ///   - leading: a field shown first, apart from the others (Print's printer list).
    init(
        interface: ActivityInterface, activityTitle: String, leading: String? = nil,
        submit: @escaping @MainActor (InterfaceValues) -> [String: String], back: (@MainActor () -> Void)? = nil,
        cancel: @escaping @MainActor () -> Void,
        complete: (@MainActor (InterfaceField, String) -> [AddressCompletion])? = nil
    ) {
        self.interface = interface
        self.submit = submit
        cancelAction = cancel
        let page = Widgets.vertical(spacing: 14)
        Widgets.margins(page, 12)
        // The sender and the attachments are drawn below; the message only says them in words
        // for presenters that draw neither.
        if let message = interface.message, interface.sender == nil, interface.attachments.isEmpty {
            Widgets.append(page, Widgets.label(message, classes: ["dim-label"], wraps: true))
        }
        if let sender = interface.sender { Widgets.append(page, MessageParts.senderLine(sender)) }
        fields = interface.fields.map { FieldView($0, complete: complete) }
        // Details most shares leave alone (Mail's Cc and Bcc) wait in a closed "More fields"
        // expander, open at once when one of them was given ahead or needs a value.
        let advanced = fields.filter { $0.field.isAdvanced && $0.field.id != leading }
        // The attachments sit above the body, as a mail program shows them, so they are in view
        // at the window's first size while the body grows below; after the fields without one.
        let attachmentList = interface.attachments.isEmpty ? nil : MessageParts.attachmentList(interface.attachments)
        var attachmentsShown = false
        for field in fields where field.field.id == leading { Widgets.append(page, field.widget) }
        for field in fields where !field.field.isAdvanced && field.field.id != leading {
            if let attachmentList, !attachmentsShown, case .multilineText = field.field.kind {
                Widgets.append(page, attachmentList)
                attachmentsShown = true
            }
            Widgets.append(page, field.widget)
        }
        if advanced.isEmpty {
            moreFields = nil
        } else {
            let box = Widgets.vertical(spacing: 14)
            Widgets.margins(box, 6)
            for field in advanced { Widgets.append(box, field.widget) }
            let expander = gtk_expander_new("More fields")!
            gtk_expander_set_child(OpaquePointer(expander), box)
            let needed = advanced.contains { view in
                (view.field.isPreset && view.field.defaultValue.map { !$0.isEmpty } == true)
                    || view.field.problem(with: view.field.defaultValue) != nil
            }
            gtk_expander_set_expanded(OpaquePointer(expander), needed ? 1 : 0)
            Widgets.append(page, expander)
            moreFields = expander
        }
        if let attachmentList, !attachmentsShown { Widgets.append(page, attachmentList) }
        generalProblem = Widgets.label("", classes: ["error"], wraps: true)
        Widgets.show(generalProblem, false)
        Widgets.append(page, generalProblem)

        // The buttons exist before `self` does; their actions are set once it does.
        let submitAction = ActionRelay()
        let cancelButtonAction = ActionRelay()
        submitButton = Widgets.button(interface.submitTitle, classes: ["suggested-action"]) { submitAction.run() }
        let cancelButton = Widgets.button("Cancel") { cancelButtonAction.run() }
        let buttons = Widgets.horizontal(spacing: 8)
        if let back {
            // Back on the left, apart from the buttons that end the form.
            let backButton = Widgets.button("Back") { back() }
            gtk_widget_set_hexpand(backButton, 1)
            gtk_widget_set_halign(backButton, GTK_ALIGN_START)
            Widgets.append(buttons, backButton)
        } else {
            gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        }
        Widgets.append(buttons, cancelButton, submitButton)

        let column = Widgets.vertical(spacing: 0)
        preview = interface.preview.map(PreviewPane.init(render:))
        let content: Widget
        if let preview {
            // The pages beside the fields, as a print dialog shows them, both scrolled together.
            content = Widgets.horizontal(spacing: 6)
            Widgets.margins(preview.widget, 12)
            gtk_widget_set_hexpand(page, 1)
            Widgets.append(content, preview.widget, page)
        } else {
            content = page
        }
        let scroller = Widgets.scroller(content, horizontal: false)
        gtk_widget_set_vexpand(scroller, 1)
        Widgets.margins(buttons, 12)
        Widgets.append(column, scroller, buttons)
        widget = column

        // Ctrl+Enter sends from anywhere in the form, the Body's lines included, where Enter
        // starts a new line (as GNOME's mail and chat programs do).
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { key, state in
            guard key == UInt32(GDK_KEY_Return) || key == UInt32(GDK_KEY_KP_Enter),
                state.rawValue & GDK_CONTROL_MASK.rawValue != 0
            else { return false }
            submitAction.run()
            return true
        }
        gtk_widget_add_controller(column, keys)

        submitAction.action = { [weak self] in self?.trySubmit() }
        cancelButtonAction.action = { [weak self] in self?.cancel() }
        for field in fields {
            field.onChange = { [weak self] in self?.refresh() }
            field.onActivate = { [weak self] in self?.trySubmit() }
        }
        refresh()
    }

    /// Focuses the first field that still needs a value, else the first one shown that was not
    /// filled ahead (Subject after a suggestion filled To: Cc waits closed under "More fields").
    func focusFirstField() {
        let values = currentValues
        let first =
            fields.first { field in field.field.problem(with: values[field.field.id]) != nil }
            ?? fields.first { !$0.field.isPreset && !$0.field.isAdvanced } ?? fields.first
        first?.focus()
    }

    /// Closes a list of completions under a field; true when one was open, so Escape closes
    /// that list first, as in any entry with completions, and the form only after.
    func closeOpenList() -> Bool {
        fields.contains { $0.closeCompletions() }
    }

    /// Cancels the interface (Cancel, Escape, the close button).
    func cancel() {
        guard !finished else { return }
        finished = true
        cancelAction()
    }

    private var currentValues: InterfaceValues {
        var values: InterfaceValues = [:]
        for field in fields { values[field.field.id] = field.value }
        return values
    }

    /// Shows the problems of the fields the person touched and enables the submit button only
    /// when there are none at all.
    private func refresh() {
        let problems = interface.problems(with: currentValues)
        for field in fields {
            field.show(problem: field.wasEdited ? problems[field.field.id] : nil)
        }
        gtk_widget_set_sensitive(submitButton, problems.isEmpty ? 1 : 0)
        let values = currentValues
        gtk_button_set_label(cg_button(submitButton), interface.submitTitle(for: values))
        // Pages are drawn for values that make sense only; a problem keeps the last drawing.
        if problems.isEmpty { preview?.show(values) }
    }

    private func trySubmit() {
        guard !finished else { return }
        let values = currentValues
        let problems = submit(values)
        if problems.isEmpty {
            finished = true
            return
        }
        for field in fields { field.markEdited() }
        // A problem in a hidden field is shown, not left closed away.
        if let moreFields, fields.contains(where: { $0.field.isAdvanced && problems[$0.field.id] != nil }) {
            gtk_expander_set_expanded(OpaquePointer(moreFields), 1)
        }
        refresh()
        // Problems the activity reports for no field of its own are said under the form.
        let general = problems.filter { key, _ in !fields.contains { $0.field.id == key } }.sorted { $0.key < $1.key }
        Widgets.setText(generalProblem, general.map(\.value).joined(separator: "\n"))
        Widgets.show(generalProblem, !general.isEmpty)
    }
}

/// An action set after the widget that runs it was made.
@MainActor
final class ActionRelay {
    var action: () -> Void = {}
    func run() { action() }
}
