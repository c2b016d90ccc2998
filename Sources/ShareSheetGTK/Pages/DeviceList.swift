import CGtk
import ShareSheet

/// The devices AirDrop found, one row each as they arrive: the device's icon, its name and what
/// sort of device it is, in a rounded card as GNOME draws a list. A row is a button, so a click,
/// or the arrow keys and Enter, pick it, and assistive technology reads the device's name as
/// the button's and its details as the description.
@MainActor
final class DeviceList {
    /// The card; hidden, taking no space, until a device is there.
    let widget: Widget
    /// Runs with the option of the row the person picked.
    var onPick: (ChoiceOptions.Option) -> Void = { _ in }

    private var rows: [String: (button: Widget, title: Widget, subtitle: Widget, icon: Widget)] = [:]
    private var order: [String] = []

    init() {
        widget = Widgets.vertical(spacing: 0)
        gtk_widget_add_css_class(widget, "card")
        Widgets.show(widget, false)
    }

    var isEmpty: Bool { order.isEmpty }

    /// Adds a row for `option`, or redraws the one with its id (a device that said more).
    func add(_ option: ChoiceOptions.Option) {
        if let row = rows[option.id] {
            draw(option, on: row)
            return
        }
        if !order.isEmpty {
            let line = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
            Widgets.append(widget, line)
        }
        let icon = Widgets.themedIcon(option.iconName ?? "computer", size: 32)
        let title = Widgets.label(option.title)
        let subtitle = Widgets.label("", classes: ["dim-label", "caption"], wraps: true)
        let words = Widgets.vertical(spacing: 2)
        gtk_widget_set_valign(words, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(words, 1)
        Widgets.append(words, title, subtitle)
        let content = Widgets.horizontal(spacing: 12)
        Widgets.margins(content, 6)
        Widgets.append(content, icon, words)
        let button = gtk_button_new()!
        gtk_button_set_child(cg_button(button), content)
        gtk_widget_add_css_class(button, "flat")
        let row = (button: button, title: title, subtitle: subtitle, icon: icon)
        rows[option.id] = row
        order.append(option.id)
        draw(option, on: row)
        let id = option.id
        Signals.connect(button, "clicked") { [weak self] in
            // The latest words for the device, not the first ones it sent.
            guard let self, let option = self.latest[id] else { return }
            self.onPick(option)
        }
        Widgets.append(widget, button)
        Widgets.show(widget, true)
    }

    /// The option each row shows now.
    private var latest: [String: ChoiceOptions.Option] = [:]

    /// Focuses the first row; false when there is none.
    @discardableResult
    func focusFirst() -> Bool {
        guard let first = order.first, let row = rows[first] else { return false }
        gtk_widget_grab_focus(row.button)
        return true
    }

    /// Title, the kind of device under it (or, for a device to be wary of, why, marked as a
    /// warning), the icon, and the accessible name, description and tooltip.
    private func draw(_ option: ChoiceOptions.Option, on row: (button: Widget, title: Widget, subtitle: Widget, icon: Widget)) {
        latest[option.id] = option
        Widgets.setText(row.title, option.title)
        let subtitle = option.isWarning ? option.detail : option.kind ?? option.detail
        Widgets.setText(row.subtitle, subtitle ?? "")
        Widgets.show(row.subtitle, subtitle?.isEmpty == false)
        if option.isWarning {
            gtk_widget_add_css_class(row.subtitle, "warning")
            gtk_widget_remove_css_class(row.subtitle, "dim-label")
        }
        IconLookup.show(option.iconName ?? "computer", in: row.icon)
        cg_set_accessible_label(row.button, option.title)
        if let detail = option.detail {
            gtk_widget_set_tooltip_text(row.button, detail)
            cg_set_accessible_description(row.button, detail)
        }
    }
}
