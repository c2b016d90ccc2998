import CGtk
import Foundation
import ShareSheet
import Sharing

/// The sheet's header: a picture of the items and a line saying what they are.
///
/// The picture is the source's link metadata image or icon, else the image file itself scaled
/// with gdk-pixbuf off the main thread, else the type's icon. Only placeholders are read, so
/// drawing the header never starts a provider.
@MainActor
final class HeaderView {
    let widget: Widget
    /// The second line ("3 files, 12 MB").
    let summary: String

    private let picture: Widget
    private let title: String
    static let pictureSize: Int32 = 64

    init(previews: [ItemPreview]) {
        let preview = SharePreview(previews: previews)
        summary = preview.summary
        title = preview.title
        picture = gtk_image_new()
        gtk_image_set_pixel_size(cg_image(picture), Self.pictureSize)
        gtk_widget_set_size_request(picture, Self.pictureSize, Self.pictureSize)
        gtk_widget_set_valign(picture, GTK_ALIGN_START)
        let title = Widgets.label(preview.title, classes: ["title-4"])
        gtk_label_set_lines(cg_label(title), 2)
        gtk_label_set_wrap(cg_label(title), 1)
        gtk_label_set_wrap_mode(cg_label(title), PANGO_WRAP_WORD_CHAR)
        let text = Widgets.vertical(spacing: 4)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(text, 1)
        Widgets.append(text, title)
        Widgets.append(text, Widgets.label(preview.summary, classes: ["dim-label"]))
        widget = Widgets.horizontal(spacing: 12)
        Widgets.append(widget, picture, text)
        show(preview.artwork)
    }

    private func show(_ artwork: SharePreview.Artwork) {
        switch artwork {
        case .icon(let name):
            gtk_image_set_from_icon_name(cg_image(picture), IconLookup.bestName(for: name))
        case .imageFile(let url):
            load(.file(url.path))
        case .imageData(let data):
            load(.bytes(data))
        }
    }

    /// Shows the type's icon at once, then the scaled image when gdk-pixbuf has decoded it.
    private func load(_ source: Thumbnail.Source) {
        gtk_image_set_from_icon_name(cg_image(picture), IconLookup.bestName(for: "image-x-generic"))
        let size = Self.pictureSize * 2
        Task { [weak self] in
            guard let thumbnail = await Thumbnail.scaled(source, fitting: size) else { return }
            self?.show(thumbnail)
        }
    }

    private func show(_ thumbnail: Thumbnail) {
        let texture = gdk_texture_new_for_pixbuf(thumbnail.pixbuf)
        gtk_image_set_from_paintable(cg_image(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        // Says to assistive technology (and the tests) that the picture is the item's own.
        cg_set_accessible_label(picture, "Thumbnail of \(title)")
    }
}

/// A decoded, scaled image, made off the main thread and handed to it once.
final class Thumbnail: @unchecked Sendable {
    enum Source: Sendable {
        case file(String)
        case bytes(Data)
    }

    /// Owned: unreferenced when the thumbnail goes.
    let pixbuf: OpaquePointer

    init(pixbuf: OpaquePointer) { self.pixbuf = pixbuf }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    /// Decodes and scales `source` to fit `size` pixels, keeping its aspect, on a background
    /// thread; nil when gdk-pixbuf cannot read it.
    static func scaled(_ source: Source, fitting size: Int32) async -> Thumbnail? {
        await Task.detached(priority: .userInitiated) { () -> Thumbnail? in
            var error: UnsafeMutablePointer<GError>?
            let pixbuf: OpaquePointer?
            switch source {
            case .file(let path):
                pixbuf = gdk_pixbuf_new_from_file_at_scale(path, size, size, 1, &error)
            case .bytes(let data):
                pixbuf = data.withUnsafeBytes { bytes -> OpaquePointer? in
                    let copy = g_bytes_new(bytes.baseAddress, gsize(bytes.count))
                    defer { g_bytes_unref(copy) }
                    let stream = g_memory_input_stream_new_from_bytes(copy)
                    defer { g_object_unref(stream) }
                    return gdk_pixbuf_new_from_stream_at_scale(stream, size, size, 1, nil, &error)
                }
            }
            if let error { g_error_free(error) }
            return pixbuf.map(Thumbnail.init(pixbuf:))
        }.value
    }
}
