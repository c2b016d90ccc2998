import CGdkPixbuf
import Foundation
import GLibErrors
import ShareSheet

/// Decodes any image gdk-pixbuf reads (JPEG, GIF, WebP, TIFF, BMP…) and encodes it as PNG, the
/// one image type every program that pastes images asks for. The one place this module calls
/// gdk-pixbuf.
enum ImageConverter {
    static func png(from data: Data, label: String) throws -> Data {
        guard let loader = gdk_pixbuf_loader_new() else { throw ShareError(.ioError, "\(label): out of memory") }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var error: UnsafeMutablePointer<GError>?
        let wrote = data.withUnsafeBytes { bytes in
            gdk_pixbuf_loader_write(
                loader, bytes.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(bytes.count), &error)
        }
        // Closing is needed either way; its error matters only when the write went well.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        if wrote != 0, closed == 0 { swap(&error, &closeError) }
        if closeError != nil { g_error_free(closeError) }
        guard wrote != 0, closed != 0, let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw ShareError(
                .badData, "\(label): cannot decode the image: \(GLibError(taking: &error, call: "gdk_pixbuf_loader_write").message)")
        }
        // A photo turned by its EXIF orientation is pasted the way viewers show it.
        let upright = gdk_pixbuf_apply_embedded_orientation(decoded) ?? decoded
        defer { if upright != decoded { g_object_unref(UnsafeMutableRawPointer(upright)) } }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        guard gdk_pixbuf_save_to_bufferv(upright, &buffer, &size, "png", nil, nil, &error) != 0, let buffer else {
            throw ShareError(
                .ioError, "\(label): cannot encode PNG: \(GLibError(taking: &error, call: "gdk_pixbuf_save_to_bufferv").message)")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }
}
