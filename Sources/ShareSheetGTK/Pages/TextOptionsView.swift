import CGtk
import ShareSheet

/// The text items, editable before the pick (SPEC §13): each in a text view of its own, its
/// edit kept as the person's choice while it differs from the original.
@MainActor
final class TextOptionsView {
    let widget: Widget
    /// Runs with the item's position and its text, nil when it is back to the original.
    var onEdit: (Int, String?) -> Void = { _, _ in }

    /// - Parameters:
    ///   - texts: each text item's position among all items and its original text.
    ///   - edited: the edits made so far, by position.
    ///   - itemCount: how many items there are, to name each text by its place among them.
    init(texts: [(index: Int, text: String)], edited: [Int: String], itemCount: Int) {
        widget = Widgets.vertical(spacing: 6)
        for (index, original) in texts {
            // One text among other items is named by its place, as the strip shows them.
            let name = itemCount == 1 ? "Text to send" : "Text of item \(index + 1)"
            let view = gtk_text_view_new()!
            gtk_text_view_set_wrap_mode(cg_text_view(view), GTK_WRAP_WORD_CHAR)
            // Tab leaves the view, so the keyboard can reach the activities below.
            gtk_text_view_set_accepts_tab(cg_text_view(view), 0)
            Widgets.margins(view, 6)
            cg_set_accessible_label(view, name)
            let buffer = gtk_text_view_get_buffer(cg_text_view(view))
            gtk_text_buffer_set_text(buffer, edited[index] ?? original, -1)
            let scroller = Widgets.scroller(view, horizontal: false)
            gtk_scrolled_window_set_min_content_height(cg_scrolled(scroller), 64)
            gtk_scrolled_window_set_max_content_height(cg_scrolled(scroller), 160)
            gtk_widget_add_css_class(scroller, "card")
            Widgets.append(widget, Widgets.label(name, classes: ["caption-heading"]), scroller)
            Signals.connect(buffer.map(UnsafeMutableRawPointer.init), "changed") { [weak self] in
                guard let self, let buffer else { return }
                var start = GtkTextIter()
                var end = GtkTextIter()
                gtk_text_buffer_get_bounds(buffer, &start, &end)
                let pointer = gtk_text_buffer_get_text(buffer, &start, &end, 0)
                defer { g_free(pointer) }
                let text = pointer.map { String(cString: $0) } ?? ""
                self.onEdit(index, text == original ? nil : text)
            }
        }
    }
}
