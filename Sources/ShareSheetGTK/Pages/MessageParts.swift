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
        let heading = Widgets.label("From", classes: ["heading"])
        let address = Widgets.label(sender.address, wraps: true)
        gtk_label_set_selectable(cg_label(address), 1)
        // Selectable text takes the focus; it is read, not edited, so Tab passes it by.
        gtk_widget_set_focusable(address, 0)
        Widgets.append(box, heading, address)
        if sender.isGuessed {
            let note = Widgets.label(
                "Guessed from your account, as no address is set up: replies may not reach you. Set your address in Settings.",
                classes: ["dim-label", "caption"], wraps: true)
            Widgets.append(box, note)
        }
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
        let icon = Widgets.themedIcon(iconName(for: attachment), size: 24)
        let name = Widgets.label(attachment.name)
        gtk_label_set_ellipsize(cg_label(name), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(name, 1)
        let size = Widgets.label(
            attachment.byteCount.map(ByteCountFormat.string) ?? "Size unknown", classes: ["dim-label", "numeric"])
        Widgets.append(row, icon, name, size)
        return row
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
