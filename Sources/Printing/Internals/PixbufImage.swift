import CCairo
import CGdkPixbuf
import Foundation
import GLibErrors
import ShareSheetSystem

/// An image decoded by gdk-pixbuf (any format it has a loader for: PNG, JPEG, GIF, WebP…),
/// turned upright by its EXIF orientation and copied into a Cairo image surface.
final class DecodedImage {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// Decodes `data`.
    /// - Throws: `PrintFailure` with gdk-pixbuf's reason when the bytes are not a whole image.
    convenience init(data: Data) throws {
        // gdk-pixbuf's whole-file loaders notice a truncated or corrupt file; its incremental
        // loader may hand back half an image, so the bytes go through a private file. Its name
        // carries our PID, so that a print killed before removing it has it removed by the next.
        let temporary = FileManager.default.temporaryDirectory
        WriterProcess.removeAbandoned(in: temporary, prefix: Self.stagedPrefix, folders: false)
        let file = temporary.appendingPathComponent("\(Self.stagedPrefix)\(getpid()).\(UUID().uuidString)")
        do {
            try data.write(to: file)
        } catch {
            throw PrintFailure(call: "write", reason: "cannot stage the image: \(error)")
        }
        defer { unlink(file.path) }
        try self.init(path: file.path)
    }

    /// The start of a staged image's name in the temporary folder: `sharesheet-image-PID.UUID`
    /// (before #28 `sharesheet-image-UUID`, without the PID).
    static let stagedPrefix = "sharesheet-image-"

    /// Decodes the image file at `path`.
    /// - Throws: `PrintFailure` with gdk-pixbuf's reason when the file is not a whole image.
    init(path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file(path, &error) else {
            throw PrintFailure(call: "gdk_pixbuf_new_from_file", reason: Self.reason(GLibError(taking: &error, call: "gdk_pixbuf_new_from_file")))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
        guard let upright = gdk_pixbuf_apply_embedded_orientation(loaded) else {
            throw PrintFailure(call: "gdk_pixbuf_apply_embedded_orientation", reason: "out of memory")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }
        width = Int(gdk_pixbuf_get_width(upright))
        height = Int(gdk_pixbuf_get_height(upright))
        guard width > 0, height > 0 else { throw PrintFailure(call: "gdk_pixbuf_loader", reason: "the image is empty") }
        surface = try Self.surface(from: upright, width: width, height: height)
    }

    deinit { cairo_surface_destroy(surface) }

    /// Draws the image as large as fits in `rect`, centred, keeping its aspect ratio.
    func draw(cr: OpaquePointer, fittingIn rect: CGRect) {
        let scale = min(rect.width / Double(width), rect.height / Double(height))
        let drawnWidth = Double(width) * scale
        let drawnHeight = Double(height) * scale
        cairo_save(cr)
        cairo_translate(cr, rect.minX + (rect.width - drawnWidth) / 2, rect.minY + (rect.height - drawnHeight) / 2)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Copies RGB(A) pixels into a premultiplied native-endian ARGB32 surface.
    private static func surface(from pixbuf: OpaquePointer, width: Int, height: Int) throws -> OpaquePointer {
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard let pixels = gdk_pixbuf_read_pixels(pixbuf), channels >= 3 else {
            throw PrintFailure(call: "gdk_pixbuf_read_pixels", reason: "unsupported pixel layout")
        }
        let surface = cairo_image_surface_create(hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        try CairoPDFWriter.check(cairo_surface_status(surface), "cairo_image_surface_create")
        cairo_surface_flush(surface)
        let targetStride = Int(cairo_image_surface_get_stride(surface))
        guard let target = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw PrintFailure(call: "cairo_image_surface_get_data", reason: "no pixel buffer")
        }
        for y in 0..<height {
            let sourceRow = pixels + y * sourceStride
            let targetRow = UnsafeMutableRawPointer(target + y * targetStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = sourceRow + x * channels
                var red = UInt32(pixel[0])
                var green = UInt32(pixel[1])
                var blue = UInt32(pixel[2])
                let alpha = hasAlpha ? UInt32(pixel[3]) : 255
                if alpha < 255 {
                    red = (red * alpha + 127) / 255
                    green = (green * alpha + 127) / 255
                    blue = (blue * alpha + 127) / 255
                }
                targetRow[x] = alpha << 24 | red << 16 | green << 8 | blue
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    private static func reason(_ error: GLibError) -> String {
        guard !error.domain.isEmpty else { return "not an image gdk-pixbuf can read" }
        let message = error.message
        // "Failed to load image “/tmp/…”: Fatal error in PNG image file: Read Error": the
        // path is ours (or the one the caller already names); keep the reason.
        if let quote = message.range(of: "”: ") { return String(message[quote.upperBound...]) }
        return message
    }
}
