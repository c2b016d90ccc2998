import CGtk
import ShareSheet
import Sharing

/// One suggestion drawn as the iOS sheet's people row draws it: a round avatar (the contact's
/// photo, else their initials on a coloured circle, else the device's or application's icon)
/// with the activity's icon as a small badge on its corner, and the target's name under it.
///
/// It is a flat button named for assistive technology by what picking it does ("Mail to Ana
/// Lima"); the subtitle (an address, a device's model) is its tooltip and description.
@MainActor
final class SuggestionAvatar {
    let widget: Widget
    let suggestion: ActivitySuggestion

    /// The circle's diameter: larger than an activity's icon tile, as people come first.
    static let size: Int32 = 56
    /// The width each avatar takes in the row: its caption wraps within it.
    static let width: Int32 = 84
    private static let badgeSize: Int32 = 22
    /// How many colours `Stylesheet` defines for initials (`sharesheet-avatar-color0`…).
    static let colorCount: UInt32 = 8

    private let circle: Widget

    /// - Parameters:
    ///   - suggestion: what it suggests.
    ///   - spokenName: what picking it does, in words ("Mail to Ana Lima").
    ///   - activityIcon: the icon of the activity it runs, drawn as the badge.
    ///   - pick: runs when the person picks it (click, Enter, Space).
    init(suggestion: ActivitySuggestion, spokenName: String, activityIcon: String, pick: @escaping @MainActor () -> Void) {
        self.suggestion = suggestion
        circle = Widgets.horizontal(spacing: 0)
        gtk_widget_set_size_request(circle, Self.size, Self.size)
        gtk_widget_set_halign(circle, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(circle, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(circle, "sharesheet-avatar")
        // The photo is clipped to the circle's rounded border, not drawn square over it.
        gtk_widget_set_overflow(circle, GTK_OVERFLOW_HIDDEN)
        // The face expands to centre itself in the circle; said here, that stops at the circle
        // instead of spreading a short row's avatars across the window.
        gtk_widget_set_hexpand(circle, 0)
        gtk_widget_set_vexpand(circle, 0)

        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(overlay), circle)
        gtk_widget_set_halign(overlay, GTK_ALIGN_CENTER)
        if activityIcon != suggestion.iconName {
            gtk_overlay_add_overlay(OpaquePointer(overlay), Self.badge(activityIcon))
        }

        let caption = gtk_label_new(Self.caption(suggestion.title))!
        Self.neverHyphenate(caption)
        gtk_label_set_wrap(cg_label(caption), 1)
        gtk_label_set_wrap_mode(cg_label(caption), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(cg_label(caption), GTK_JUSTIFY_CENTER)
        // The button's narrow side padding (`Stylesheet`) leaves "example.com" room for its line.
        gtk_label_set_max_width_chars(cg_label(caption), 12)
        gtk_label_set_lines(cg_label(caption), 2)
        gtk_label_set_ellipsize(cg_label(caption), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(caption, "caption")

        let content = Widgets.vertical(spacing: 6)
        Widgets.append(content, overlay, caption)
        widget = gtk_button_new()!
        gtk_button_set_child(cg_button(widget), content)
        gtk_widget_add_css_class(widget, "flat")
        gtk_widget_add_css_class(widget, "sharesheet-suggestion")
        gtk_widget_set_size_request(widget, Self.width, -1)
        cg_set_accessible_label(widget, spokenName)
        let detail = suggestion.subtitle.trimmingCharacters(in: .whitespacesAndNewlines)
        if !detail.isEmpty {
            gtk_widget_set_tooltip_text(widget, detail)
            cg_set_accessible_description(widget, detail)
        } else {
            gtk_widget_set_tooltip_text(widget, spokenName)
        }
        Signals.connect(widget, "clicked", pick)
        drawFace()
    }

    /// The photo when there is one (initials or the icon until it is decoded), else initials
    /// for a person, else the themed icon.
    private func drawFace() {
        let initials = Self.isPerson(suggestion) ? SuggestionNames.initials(of: suggestion.title) : nil
        if let initials {
            showInitials(initials)
        } else {
            showIcon()
        }
        guard let path = suggestion.photoPath, !path.isEmpty else { return }
        Task { [weak self] in
            guard let self, let photo = await Thumbnail.square(path, side: Self.size * 2) else { return }
            self.showPhoto(photo)
        }
    }

    private func showInitials(_ initials: String) {
        let label = gtk_label_new(initials)!
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_halign(label, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(label, "sharesheet-avatar-initials")
        replaceFace(with: label)
        gtk_widget_add_css_class(circle, "sharesheet-avatar-color\(Self.colorIndex(of: suggestion.id))")
    }

    private func showIcon() {
        let image = Widgets.themedIcon(suggestion.iconName, size: 28)
        gtk_widget_set_hexpand(image, 1)
        gtk_widget_set_halign(image, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(image, GTK_ALIGN_CENTER)
        replaceFace(with: image)
        gtk_widget_add_css_class(circle, "sharesheet-avatar-icon")
    }

    private func showPhoto(_ photo: Thumbnail) {
        let image = gtk_image_new()!
        let texture = gdk_texture_new_for_pixbuf(photo.pixbuf)
        gtk_image_set_from_paintable(cg_image(image), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        gtk_image_set_pixel_size(cg_image(image), Self.size)
        gtk_widget_set_hexpand(image, 1)
        replaceFace(with: image)
        // Says to assistive technology (and the tests) that the contact's own photo is shown.
        cg_set_accessible_label(image, "Photo of \(suggestion.title)")
    }

    private func replaceFace(with face: Widget) {
        Widgets.removeChildren(circle)
        for index in 0..<Self.colorCount { gtk_widget_remove_css_class(circle, "sharesheet-avatar-color\(index)") }
        gtk_widget_remove_css_class(circle, "sharesheet-avatar-icon")
        Widgets.append(circle, face)
    }

    /// The activity's icon on a small disc at the avatar's lower right, so "Mail to Ana" and
    /// "Message to Ana" look apart as well as read apart.
    private static func badge(_ iconName: String) -> Widget {
        let icon = Widgets.themedIcon(iconName, size: 12)
        gtk_widget_set_hexpand(icon, 1)
        gtk_widget_set_halign(icon, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(icon, GTK_ALIGN_CENTER)
        let disc = Widgets.horizontal(spacing: 0)
        gtk_widget_set_size_request(disc, badgeSize, badgeSize)
        gtk_widget_add_css_class(disc, "sharesheet-avatar-badge")
        Widgets.append(disc, icon)
        gtk_widget_set_halign(disc, GTK_ALIGN_END)
        gtk_widget_set_valign(disc, GTK_ALIGN_END)
        gtk_widget_set_margin_end(disc, -4)
        gtk_widget_set_margin_bottom(disc, -2)
        return disc
    }

    /// The title as the caption shows it: an address alone may break after its "@" ("bo@" over
    /// "example.com"), where a reader expects it, rather than anywhere.
    private static func caption(_ title: String) -> String {
        guard !title.contains(where: \.isWhitespace), let at = title.firstIndex(of: "@") else { return title }
        return title[...at] + "\u{200B}" + title[title.index(after: at)...]
    }

    /// Names and addresses are not words of a language: Pango must not add hyphens where it
    /// breaks them ("bo@exam-ple.com").
    private static func neverHyphenate(_ label: Widget) {
        let attributes = pango_attr_list_new()
        pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0))
        gtk_label_set_attributes(cg_label(label), attributes)
        pango_attr_list_unref(attributes)
    }

    /// A person is reached by an address (Mail, Message); devices and applications are drawn
    /// with their icon.
    private static func isPerson(_ suggestion: ActivitySuggestion) -> Bool {
        suggestion.photoPath != nil || suggestion.activityType == .mail || suggestion.activityType == .message
            || suggestion.activityType == .assignToContact
    }

    /// The same colour for the same suggestion in every sheet and process: FNV-1a over the id
    /// (Swift's `hashValue` is seeded per process, so it cannot be used).
    static func colorIndex(of id: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in id.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash % colorCount
    }
}

extension Thumbnail {
    /// `path` decoded and scaled so its shorter side is `side` pixels, then cut to the centre
    /// square, off the main thread: what a round avatar shows of a photo that is not square.
    static func square(_ path: String, side: Int32) async -> Thumbnail? {
        await Task.detached(priority: .userInitiated) { () -> Thumbnail? in
            var width: Int32 = 0
            var height: Int32 = 0
            guard gdk_pixbuf_get_file_info(path, &width, &height) != nil, width > 0, height > 0 else { return nil }
            var error: UnsafeMutablePointer<GError>?
            let scaled =
                width < height
                ? gdk_pixbuf_new_from_file_at_scale(path, side, -1, 1, &error)
                : gdk_pixbuf_new_from_file_at_scale(path, -1, side, 1, &error)
            if let error { g_error_free(error) }
            guard let scaled else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
            let scaledWidth = gdk_pixbuf_get_width(scaled)
            let scaledHeight = gdk_pixbuf_get_height(scaled)
            let edge = min(scaledWidth, scaledHeight)
            // The sub-pixbuf keeps its parent's pixels alive by its own reference.
            guard
                let square = gdk_pixbuf_new_subpixbuf(
                    scaled, (scaledWidth - edge) / 2, (scaledHeight - edge) / 2, edge, edge)
            else { return nil }
            return Thumbnail(pixbuf: square)
        }.value
    }
}
