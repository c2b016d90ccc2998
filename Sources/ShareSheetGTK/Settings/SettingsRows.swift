import CGtk

/// The rows the settings window is made of, as libadwaita draws preferences (libadwaita 1.2:
/// no AdwSwitchRow yet, so a switch is an action row with a GtkSwitch). Every control gets its
/// visible title as its accessible name, on the row and on the text inside it, where the
/// keyboard focus and a screen reader's cursor rest.
@MainActor
enum SettingsRows {
    /// A titled group of rows; `description` is a sentence under the title.
    static func group(_ title: String, description: String? = nil) -> Widget {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(typed(group), title)
        if let description { adw_preferences_group_set_description(typed(group), description) }
        return group
    }

    static func add(_ row: Widget, to group: Widget) { adw_preferences_group_add(typed(group), row) }

    static func remove(_ row: Widget, from group: Widget) { adw_preferences_group_remove(typed(group), row) }

    /// A row with a title and a subtitle, for buttons at its end (`addSuffix`).
    static func action(_ title: String, subtitle: String?) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(typed(row), title)
        if let subtitle { adw_action_row_set_subtitle(typed(row), subtitle) }
        return row
    }

    static func addSuffix(_ widget: Widget, to row: Widget) { adw_action_row_add_suffix(typed(row), widget) }

    /// A one-line text field titled `title`, holding `text`; a password field hides it.
    static func entry(_ title: String, text: String, password: Bool = false) -> Widget {
        let row = password ? adw_password_entry_row_new()! : adw_entry_row_new()!
        adw_preferences_row_set_title(typed(row), title)
        gtk_editable_set_text(cg_editable(row), text)
        name(row, title)
        if let inner = gtk_editable_get_delegate(cg_editable(row)) { name(UnsafeMutableRawPointer(inner), title) }
        return row
    }

    /// The text of an entry row, trimmed.
    static func text(of row: Widget) -> String {
        String(cString: gtk_editable_get_text(cg_editable(row))).trimmingCharacters(in: .whitespaces)
    }

    /// A row with a switch; the row's title names the switch.
    static func toggle(_ title: String, subtitle: String? = nil, isOn: Bool) -> (row: Widget, toggle: Widget) {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(typed(row), title)
        if let subtitle { adw_action_row_set_subtitle(typed(row), subtitle) }
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        gtk_switch_set_active(cg_switch(toggle), isOn ? 1 : 0)
        adw_action_row_add_suffix(typed(row), toggle)
        adw_action_row_set_activatable_widget(typed(row), toggle)
        name(toggle, title)
        return (row, toggle)
    }

    static func isOn(_ toggle: Widget) -> Bool { gtk_switch_get_active(cg_switch(toggle)) != 0 }

    /// One choice among `titles`, as radio buttons down a row each (assistive technology sees
    /// a radio group; each button can be clicked by name); `selected` is checked.
    static func choice(_ name: String, titles: [String], selected: Int) -> (widget: Widget, buttons: [Widget]) {
        let group = cg_radio_group_new(0)!
        gtk_orientable_set_orientation(OpaquePointer(group), GTK_ORIENTATION_VERTICAL)
        gtk_widget_add_css_class(group, "linked")
        cg_set_accessible_label(group, name)
        var buttons: [Widget] = []
        for (index, title) in titles.enumerated() {
            let button = cg_radio_button_new(title)!
            cg_set_accessible_label(button, title)
            if let first = buttons.first { gtk_toggle_button_set_group(cg_toggle(button), cg_toggle(first)) }
            if index == selected { gtk_toggle_button_set_active(cg_toggle(button), 1) }
            if let label = gtk_button_get_child(cg_button(button)) { gtk_label_set_xalign(cg_label(label), 0) }
            buttons.append(button)
            Widgets.append(group, button)
        }
        return (group, buttons)
    }

    /// The index of the checked button.
    static func selected(_ buttons: [Widget]) -> Int? {
        buttons.firstIndex { gtk_toggle_button_get_active(cg_toggle($0)) != 0 }
    }

    /// Names a control `title` for assistive technology. libadwaita labels its rows' controls
    /// by the row's title labels, two of them (the title and its floating copy), which GTK 4.8
    /// joins into "Title Title": the label relation goes, and the one name stays.
    private static func name(_ widget: UnsafeMutableRawPointer, _ title: String) {
        gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        cg_set_accessible_label(widget, title)
    }

    /// libadwaita's derivable types come into Swift as typed pointers: the same widget, seen as one.
    private static func typed<T>(_ widget: Widget) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
    }
}
