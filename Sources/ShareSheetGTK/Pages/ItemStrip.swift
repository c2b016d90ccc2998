import CGtk
import ShareSheet
import Sharing

/// The items side by side under the header, each with a check that says whether it is sent
/// (SPEC §13), as a photo picker marks its selection: a round check on the thumbnail's corner,
/// an empty ring and a dimmed picture for an item left out.
///
/// Each tile is a toggle button that assistive technology sees as a check box named "Send
/// photo.jpg": GTK 4.8's GtkCheckButton has no action an assistive technology can click, a
/// toggle button has. Space or Enter on a focused tile and a click anywhere on it toggle it.
@MainActor
final class ItemStrip {
    let widget: Widget
    /// Runs with the item's position and whether it is now sent.
    var onToggle: (Int, Bool) -> Void = { _, _ in }

    private var tiles: [(button: Widget, picture: Widget, check: Widget)] = []
    static let pictureSize: Int32 = 56
    /// Kept: each puts its thumbnail in when gdk-pixbuf has scaled it.
    private var pictures: [ItemPicture] = []

    init(previews: [ItemPreview], leftOut: Set<Int>) {
        let row = Widgets.horizontal(spacing: 4)
        widget = Widgets.scroller(row, horizontal: true)
        for (index, preview) in previews.enumerated() {
            let own = SharePreview(previews: [preview])
            let picture = ItemPicture(own.artwork, title: own.title, size: Self.pictureSize, iconTile: true)
            pictures.append(picture)
            let check = gtk_image_new()!
            gtk_image_set_pixel_size(cg_image(check), 12)
            gtk_widget_set_halign(check, GTK_ALIGN_END)
            gtk_widget_set_valign(check, GTK_ALIGN_START)
            let overlay = gtk_overlay_new()!
            gtk_overlay_set_child(OpaquePointer(overlay), picture.widget)
            gtk_overlay_add_overlay(OpaquePointer(overlay), check)
            gtk_widget_set_halign(overlay, GTK_ALIGN_CENTER)

            let caption = Widgets.label(own.title, classes: ["caption"], centered: true)
            gtk_label_set_ellipsize(cg_label(caption), PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_max_width_chars(cg_label(caption), 10)
            gtk_label_set_width_chars(cg_label(caption), 10)
            let content = Widgets.vertical(spacing: 4)
            Widgets.append(content, overlay, caption)

            let button = cg_check_toggle_new()!
            gtk_button_set_child(cg_button(button), content)
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "sharesheet-item-tile")
            gtk_widget_set_tooltip_text(button, own.title)
            cg_set_accessible_label(button, "Send \(own.title)")
            tiles.append((button, picture.widget, check))
            show(index, sent: !leftOut.contains(index))
            Widgets.append(row, button)
            Signals.connect(button, "toggled") { [weak self] in
                guard let self else { return }
                let sent = gtk_toggle_button_get_active(cg_toggle(button)) != 0
                self.show(index, sent: sent)
                self.onToggle(index, sent)
            }
        }
    }

    /// Draws tile `index` as sent or left out, and says so to assistive technology.
    private func show(_ index: Int, sent: Bool) {
        let tile = tiles[index]
        if (gtk_toggle_button_get_active(cg_toggle(tile.button)) != 0) != sent {
            gtk_toggle_button_set_active(cg_toggle(tile.button), sent ? 1 : 0)
        }
        cg_set_accessible_checked(tile.button, sent ? 1 : 0)
        gtk_widget_set_opacity(tile.picture, sent ? 1 : 0.45)
        if sent {
            gtk_image_set_from_icon_name(cg_image(tile.check), "object-select-symbolic")
            gtk_widget_remove_css_class(tile.check, "sharesheet-item-unchecked")
            gtk_widget_add_css_class(tile.check, "sharesheet-item-checked")
        } else {
            gtk_image_clear(cg_image(tile.check))
            gtk_widget_remove_css_class(tile.check, "sharesheet-item-checked")
            gtk_widget_add_css_class(tile.check, "sharesheet-item-unchecked")
        }
    }
}
