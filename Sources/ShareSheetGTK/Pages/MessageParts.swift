import CGtk
import ShareSheet

/// The parts of a message's form that are not fields: who it goes out from, with a note when
/// that was guessed, and the files that go with it, with their sizes (SPEC §7, Mail: "From, To
/// with contact completion, attachments and sizes"). Drawn by the form for any interface that
/// describes them, so Message and an application's activity get them too.
@MainActor
enum MessageParts {
    /// "From" over the address; when the address was guessed, a note under it that says so in
    /// a sentence and where to set the real one.
    static func senderLine(_ sender: InterfaceSender) -> Widget {
        let box = Widgets.vertical(spacing: 4)
        let heading = Widgets.label(sender.heading, classes: ["heading"])
        let address = Widgets.label(sender.address, wraps: true)
        Widgets.append(box, heading, address)
        let note =
            sender.note
            ?? (sender.isGuessed
                ? "Guessed from your account, as no address is set up: replies may not reach you. Set your address in Settings."
                : nil)
        if let note { Widgets.append(box, Widgets.label(note, classes: ["dim-label", "caption"], wraps: true)) }
        return box
    }

    /// "Attachments" over a card with a row per file: its type's icon, its name and its size.
    static func attachmentList(_ attachments: [InterfaceAttachment]) -> Widget {
        let box = Widgets.vertical(spacing: 6)
        let total = attachments.compactMap(\.byteCount).reduce(0, +)
        let title = attachments.count == 1 ? "Attachment" : "\(attachments.count) Attachments"
        let heading = Widgets.horizontal(spacing: 8)
        let headingLabel = Widgets.label(title, classes: ["heading"])
        gtk_widget_set_hexpand(headingLabel, 1)
        Widgets.append(heading, headingLabel)
        if attachments.count > 1, attachments.allSatisfy({ $0.byteCount != nil }) {
            Widgets.append(heading, Widgets.label("\(ByteCountFormat.string(total)) in all", classes: ["dim-label", "caption"]))
        }
        let card = Widgets.vertical(spacing: 0)
        gtk_widget_add_css_class(card, "card")
        for (index, attachment) in attachments.enumerated() {
            if index > 0 { Widgets.append(card, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!) }
            Widgets.append(card, row(attachment))
        }
        Widgets.append(box, heading, card)
        return box
    }

    private static func row(_ attachment: InterfaceAttachment) -> Widget {
        let row = Widgets.horizontal(spacing: 10)
        Widgets.margins(row, 8)
        let icon = preview(of: attachment)
        let name = Widgets.label(attachment.name)
        gtk_label_set_ellipsize(cg_label(name), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(name, 1)
        let size = Widgets.label(
            attachment.byteCount.map(ByteCountFormat.string) ?? "Size unknown", classes: ["dim-label", "numeric"])
        Widgets.append(row, icon, name, size)
        return row
    }

    /// A picture's thumbnail, rounded, once it is decoded (the type's icon until then and for
    /// any other file): the image a post or a mail carries, seen before it goes.
    private static func preview(of attachment: InterfaceAttachment) -> Widget {
        let name = iconName(for: attachment)
        let icon = Widgets.themedIcon(name, size: 24)
        guard name == "image-x-generic", let file = attachment.fileURL else { return icon }
        let frame = Widgets.horizontal(spacing: 0)
        gtk_widget_set_size_request(frame, 48, 48)
        gtk_widget_set_valign(frame, GTK_ALIGN_CENTER)
        gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN)
        gtk_widget_add_css_class(frame, "sharesheet-attachment-thumbnail")
        gtk_widget_set_hexpand(icon, 1)
        Widgets.append(frame, icon)
        let held = UnsafeMutableRawPointer(frame)
        g_object_ref(held)
        Task {
            defer { g_object_unref(held) }
            guard let photo = await Thumbnail.square(file.path, side: 96) else { return }
            let image = gtk_image_new()!
            let texture = gdk_texture_new_for_pixbuf(photo.pixbuf)
            gtk_image_set_from_paintable(cg_image(image), texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
            gtk_image_set_pixel_size(cg_image(image), 48)
            cg_set_accessible_label(image, "Picture of \(attachment.name)")
            Widgets.removeChildren(frame)
            Widgets.append(frame, image)
        }
        return frame
    }

    /// The desktop's generic icon for the file's type ("image-x-generic"), from its MIME type
    /// or, when the interface gives none, its name.
    private static func iconName(for attachment: InterfaceAttachment) -> String {
        let contentType: UnsafeMutablePointer<gchar>?
        if let type = attachment.type, type.contains("/") {
            contentType = g_content_type_from_mime_type(type)
        } else {
            contentType = g_content_type_guess(attachment.name, nil, 0, nil)
        }
        guard let contentType else { return "text-x-generic" }
        defer { g_free(contentType) }
        guard let icon = g_content_type_get_generic_icon_name(contentType) else { return "text-x-generic" }
        defer { g_free(icon) }
        return String(cString: icon)
    }
}
