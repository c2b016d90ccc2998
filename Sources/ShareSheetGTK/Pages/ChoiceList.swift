import CGtk
import ShareSheet

/// A choice field as a list of radio buttons (toggle buttons in one group, one per option). Options that stream in (nearby devices) are added
/// as they are found, with a spinner and "Searching…" until the list is complete.
@MainActor
final class ChoiceList {
    let widget: Widget
    /// Runs when the selection changes.
    var onChange: () -> Void = {}
    /// The chosen option's id.
    private(set) var selected: String?

    private let options: ChoiceOptions
    private let list: Widget
    private let searching: Widget
    private var buttons: [String: Widget] = [:]
    /// A hidden member of the group that stands for "nothing chosen yet".
    private let group: Widget

    init(options: ChoiceOptions, label: String, selected: InterfaceValue?) {
        self.options = options
        if case .choice(let id) = selected { self.selected = id }
        widget = Widgets.vertical(spacing: 6)
        list = Widgets.vertical(spacing: 2)
        searching = Widgets.horizontal(spacing: 8)
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(cg_spinner(spinner))
        cg_set_accessible_label(spinner, "Searching")
        Widgets.append(searching, spinner, Widgets.label("Searching…", classes: ["dim-label"]))
        group = gtk_toggle_button_new()
        Widgets.show(group, false)
        Widgets.append(list, group)
        Widgets.append(widget, list, searching)
        for option in options.current { add(option) }
        Widgets.show(searching, !options.isComplete)
        if !options.isComplete {
            options.observe { [weak self] option in self?.add(option) }
            options.observeCompletion { [weak self] in
                guard let self else { return }
                Widgets.show(self.searching, false)
            }
        }
    }

    func focus() {
        if let id = selected, let button = buttons[id] {
            gtk_widget_grab_focus(button)
        } else if let first = options.current.first.flatMap({ buttons[$0.id] }) {
            gtk_widget_grab_focus(first)
        }
    }

    /// Names the button after the option's title; its detail (a device model) is the tooltip
    /// and the accessible description.
    private func describe(_ button: Widget, _ option: ChoiceOptions.Option) {
        cg_set_accessible_label(button, option.title)
        if let detail = option.detail {
            gtk_widget_set_tooltip_text(button, detail)
            cg_set_accessible_description(button, detail)
        }
    }

    /// The button's text: the title, and for a warning its detail too, shown, not only in the tooltip.
    private static func label(_ option: ChoiceOptions.Option) -> String {
        guard option.isWarning, let detail = option.detail else { return option.title }
        return "\(option.title) — \(detail)"
    }

    /// Adds a radio button for `option`, or renames the one it replaces.
    private func add(_ option: ChoiceOptions.Option) {
        if let existing = buttons[option.id] {
            gtk_button_set_label(cg_button(existing), Self.label(option))
            describe(existing, option)
            return
        }
        let button = cg_radio_button_new(Self.label(option))!
        describe(button, option)
        if option.isWarning { gtk_widget_add_css_class(button, "warning") }
        gtk_toggle_button_set_group(cg_toggle(button), cg_toggle(group))
        gtk_widget_add_css_class(button, "flat")
        if option.id == selected { gtk_toggle_button_set_active(cg_toggle(button), 1) }
        buttons[option.id] = button
        Widgets.append(list, button)
        Signals.connect(button, "toggled") { [weak self] in
            guard let self, gtk_toggle_button_get_active(cg_toggle(button)) != 0 else { return }
            self.selected = option.id
            self.onChange()
        }
    }
}
