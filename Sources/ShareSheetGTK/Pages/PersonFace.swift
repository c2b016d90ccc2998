import CGtk
import ShareSheet
import Sharing

/// A person's small round face in a list row (an address's completion, a contact to pick): the
/// photo when the card has one, else the initials on the colour the people row gives the same
/// name, so a person looks the same wherever the window shows them.
@MainActor
enum PersonFace {
    /// A circle `size` pixels wide for `name`, with the photo at `photoPath` once it is decoded
    /// (the initials until then, and for good when it cannot be).
    static func make(name: String, photoPath: String?, size: Int32 = 32) -> Widget {
        let circle = Widgets.horizontal(spacing: 0)
        gtk_widget_set_size_request(circle, size, size)
        gtk_widget_set_halign(circle, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(circle, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(circle, 0)
        gtk_widget_set_vexpand(circle, 0)
        gtk_widget_set_overflow(circle, GTK_OVERFLOW_HIDDEN)
        gtk_widget_add_css_class(circle, "sharesheet-avatar")
        gtk_widget_add_css_class(circle, "sharesheet-avatar-small")
        if let initials = SuggestionNames.initials(of: name) {
            let label = gtk_label_new(initials)!
            gtk_widget_set_hexpand(label, 1)
            gtk_widget_set_halign(label, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
            gtk_widget_add_css_class(label, "sharesheet-avatar-initials")
            Widgets.append(circle, label)
            gtk_widget_add_css_class(circle, "sharesheet-avatar-color\(SuggestionAvatar.colorIndex(of: name))")
        } else {
            let image = Widgets.themedIcon("avatar-default", size: size / 2)
            gtk_widget_set_hexpand(image, 1)
            Widgets.append(circle, image)
            gtk_widget_add_css_class(circle, "sharesheet-avatar-icon")
        }
        guard let photoPath, !photoPath.isEmpty else { return circle }
        // The circle is kept (one reference) until its photo is decoded, then drawn even if
        // the row left the window meanwhile: a moment's hold of a small widget.
        let held = UnsafeMutableRawPointer(circle)
        g_object_ref(held)
        Task {
            defer { g_object_unref(held) }
            guard let photo = await Thumbnail.square(photoPath, side: size * 2) else { return }
            let image = gtk_image_new()!
            let texture = gdk_texture_new_for_pixbuf(photo.pixbuf)
            gtk_image_set_from_paintable(cg_image(image), texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
            gtk_image_set_pixel_size(cg_image(image), size)
            gtk_widget_set_hexpand(image, 1)
            cg_set_accessible_label(image, "Photo of \(name)")
            Widgets.removeChildren(circle)
            for index in 0..<SuggestionAvatar.colorCount { gtk_widget_remove_css_class(circle, "sharesheet-avatar-color\(index)") }
            gtk_widget_remove_css_class(circle, "sharesheet-avatar-icon")
            Widgets.append(circle, image)
        }
        return circle
    }
}
