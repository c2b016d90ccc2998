import CGtk
import Foundation
import Sharing

/// A picture of one item or of all of them, as the header and the item strip draw it: the
/// source's link metadata image or icon, else the image file itself scaled with gdk-pixbuf off
/// the main thread, else the type's icon.
@MainActor
final class ItemPicture {
    let widget: Widget
    private let title: String

    /// - Parameters:
    ///   - title: what the picture shows, for its accessible name ("Thumbnail of photo.png").
    ///   - iconTile: draws an icon at half the size on a rounded tile, as photos' neighbours.
    init(_ artwork: SharePreview.Artwork, title: String, size: Int32, iconTile: Bool = false) {
        self.title = title
        widget = gtk_image_new()
        gtk_image_set_pixel_size(cg_image(widget), size)
        gtk_widget_set_size_request(widget, size, size)
        switch artwork {
        case .icon(let name):
            IconLookup.show(name, in: widget)
            // A symbolic icon as large as a photo looks heavy beside one: smaller, on a tile.
            if iconTile {
                gtk_image_set_pixel_size(cg_image(widget), size / 2)
                gtk_widget_add_css_class(widget, "sharesheet-item-icon")
            }
        case .imageFile(let url):
            load(.file(url.path), size: size)
        case .imageData(let data):
            load(.bytes(data), size: size)
        }
    }

    /// Shows the type's icon at once, then the scaled image when gdk-pixbuf has decoded it.
    /// The decoding starts once the picture is on screen: on two cores, a thread decoding a
    /// photo while the window is still being laid out delays the window itself (the photo's
    /// sheet mapped 10–20 ms later than the note's, BENCHMARKS.md "Window startup"), and the
    /// picture could not show before the window anyway.
    private func load(_ source: Thumbnail.Source, size: Int32) {
        IconLookup.show("image-x-generic", in: widget)
        let decode: @MainActor () -> Void = { [weak self] in
            Task { [weak self] in
                // Twice the size, so the picture stays sharp on a display scaled by two.
                guard let thumbnail = await Thumbnail.scaled(source, fitting: size * 2) else { return }
                self?.show(thumbnail)
            }
        }
        if gtk_widget_get_mapped(widget) != 0 {
            decode()
            return
        }
        Signals.connect(widget, "map") { [weak self] in
            guard let self, !self.decodeStarted else { return }
            self.decodeStarted = true
            decode()
        }
    }

    /// Set once the picture was first shown and its decoding started.
    private var decodeStarted = false

    private func show(_ thumbnail: Thumbnail) {
        let texture = gdk_texture_new_for_pixbuf(thumbnail.pixbuf)
        gtk_image_set_from_paintable(cg_image(widget), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        // Says to assistive technology (and the tests) that the picture is the item's own.
        cg_set_accessible_label(widget, "Thumbnail of \(title)")
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
