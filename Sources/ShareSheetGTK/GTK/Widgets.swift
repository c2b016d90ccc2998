import CGtk

/// A GTK widget as Swift sees most of them.
typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Small constructors for the widgets the window is made of, so the pages read as layout.
/// Every control gets its visible title as its accessible name (GTK 4.8 does not derive it for
/// buttons that hold an image and a label).
@MainActor
enum Widgets {
    static func vertical(spacing: Int32 = 12) -> Widget { gtk_box_new(GTK_ORIENTATION_VERTICAL, spacing) }

    static func horizontal(spacing: Int32 = 12) -> Widget { gtk_box_new(GTK_ORIENTATION_HORIZONTAL, spacing) }

    static func append(_ box: Widget, _ children: Widget...) {
        for child in children { gtk_box_append(cg_box(box), child) }
    }

    /// Removes every child of a box.
    static func removeChildren(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(cg_box(box), child) }
    }

    /// A label; `classes` are libadwaita style classes (`title-2`, `dim-label`, `error`, `caption`).
    static func label(_ text: String, classes: [String] = [], wraps: Bool = false, centered: Bool = false) -> Widget {
        let label = gtk_label_new(text)!
        gtk_label_set_xalign(cg_label(label), centered ? 0.5 : 0)
        if wraps {
            gtk_label_set_wrap(cg_label(label), 1)
            gtk_label_set_wrap_mode(cg_label(label), PANGO_WRAP_WORD_CHAR)
        } else {
            gtk_label_set_ellipsize(cg_label(label), PANGO_ELLIPSIZE_END)
        }
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }

    static func setText(_ label: Widget, _ text: String) { gtk_label_set_text(cg_label(label), text) }

    /// A push button with a text title.
    static func button(_ title: String, classes: [String] = [], action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_with_label(title)!
        for name in classes { gtk_widget_add_css_class(button, name) }
        cg_set_accessible_label(button, title)
        Signals.connect(button, "clicked", action)
        return button
    }

    /// A large icon with its title under it, as the sheet's rows draw an activity. The title
    /// wraps onto two lines `captionWidth` pixels wide: 76 holds "Reading List" and "Assign to"
    /// whole at the caption size, so no built-in's title is cut.
    static func iconButton(
        title: String, icon: Widget, captionWidth: Int32 = 76, action: @escaping @MainActor () -> Void
    ) -> Widget {
        let content = vertical(spacing: 4)
        gtk_widget_set_halign(icon, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(icon, "sharesheet-activity-icon")
        let caption = gtk_label_new(title)!
        gtk_label_set_wrap(cg_label(caption), 1)
        gtk_label_set_wrap_mode(cg_label(caption), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(cg_label(caption), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(cg_label(caption), 10)
        gtk_widget_set_size_request(caption, captionWidth, -1)
        gtk_label_set_lines(cg_label(caption), 2)
        gtk_label_set_ellipsize(cg_label(caption), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(caption, "caption")
        append(content, icon, caption)
        let button = gtk_button_new()!
        gtk_button_set_child(cg_button(button), content)
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_add_css_class(button, "sharesheet-activity-tile")
        cg_set_accessible_label(button, title)
        Signals.connect(button, "clicked", action)
        return button
    }

    /// An image from the icon theme: the symbolic variant when the theme has one. An absolute
    /// path (a desktop entry's `Icon=` may be one) is read from that file.
    static func themedIcon(_ name: String, size: Int32) -> Widget {
        let image: Widget
        if name.hasPrefix("/") {
            image = gtk_image_new_from_file(name)
        } else {
            image = gtk_image_new()
            IconLookup.show(name, in: image)
        }
        gtk_image_set_pixel_size(cg_image(image), size)
        return image
    }

    /// A scrolled area that scrolls one way only. GTK lets the keyboard focus rest on a scrolled
    /// area (to scroll it with keys, and when the focused control inside is hidden): `name` is
    /// what a screen reader says then.
    static func scroller(_ child: Widget, horizontal: Bool, name: String? = nil) -> Widget {
        let scroller = gtk_scrolled_window_new()!
        if let name { cg_set_accessible_label(scroller, name) }
        gtk_scrolled_window_set_child(cg_scrolled(scroller), child)
        if horizontal {
            gtk_scrolled_window_set_policy(cg_scrolled(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
            // Titles wrap to two lines: take the height they need, not the least they could.
            gtk_scrolled_window_set_propagate_natural_height(cg_scrolled(scroller), 1)
        } else {
            gtk_scrolled_window_set_policy(cg_scrolled(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_propagate_natural_height(cg_scrolled(scroller), 1)
        }
        return scroller
    }

    static func margins(_ widget: Widget, _ size: Int32) {
        gtk_widget_set_margin_top(widget, size)
        gtk_widget_set_margin_bottom(widget, size)
        gtk_widget_set_margin_start(widget, size)
        gtk_widget_set_margin_end(widget, size)
    }

    static func show(_ widget: Widget, _ visible: Bool) { gtk_widget_set_visible(widget, visible ? 1 : 0) }
}

/// Picks icon names the theme can draw.
@MainActor
enum IconLookup {
    private static var theme: OpaquePointer? { gtk_icon_theme_get_for_display(gdk_display_get_default()) }

    /// Adds folders to the theme's search path (our own icons when they are not installed).
    static func addSearchPaths(_ folders: [String]) {
        guard let theme else { return }
        for folder in folders { gtk_icon_theme_add_search_path(theme, folder) }
    }

    /// Shows in `image` `name-symbolic` when the theme has it, else `name`, else a generic icon.
    /// GTK picks among the three when it first draws the image: asking the theme beforehand which
    /// it has read every theme's index while the window was still being built (7 % of `share
    /// --gui`'s startup, BENCHMARKS.md "Window startup").
    static func show(_ name: String, in image: Widget) {
        let icon = themedIcon(name)
        gtk_image_set_from_gicon(cg_image(image), icon)
        g_object_unref(UnsafeMutableRawPointer(icon))
    }

    /// The three names as one `GThemedIcon`, tried in order; owned by the caller.
    private static func themedIcon(_ name: String) -> OpaquePointer {
        let names = [name + "-symbolic", name, "application-x-executable-symbolic"]
        var copies = names.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeMutableBufferPointer { g_themed_icon_new_from_names($0.baseAddress, Int32($0.count)) }
    }
}
