import CGdkPixbuf
import Foundation
import GSignals

/// A failed gdk-pixbuf call: the call and GLib's message.
struct PixbufError: Error, Sendable, CustomStringConvertible {
    /// The C function that failed.
    var call: String
    /// GLib's message, or what went wrong.
    var message: String

    var description: String { message }
}

/// The one place this module calls gdk-pixbuf: decode, orient, scale down, flatten, encode.
enum Pixbuf {
    /// A JPEG and its size in pixels.
    struct Encoded: Sendable {
        var jpeg: Data
        var width: Int
        var height: Int
    }

    /// Decodes `data` (any format gdk-pixbuf reads), applies its EXIF orientation, scales it so
    /// that neither side exceeds `maxPixelSize` (keeping its aspect; never enlarging), lays any
    /// transparency over white, and encodes it as a JPEG of `quality` (0–100).
    /// - Throws: `PixbufError` when the bytes are not an image gdk-pixbuf can read.
    static func scaledJPEG(from data: Data, maxPixelSize: Int, quality: Int) throws(PixbufError) -> Encoded {
        let decoded = try decode(data, maxPixelSize: maxPixelSize)
        defer { g_object_unref(UnsafeMutableRawPointer(decoded)) }
        guard let oriented = gdk_pixbuf_apply_embedded_orientation(decoded) else {
            throw PixbufError(call: "gdk_pixbuf_apply_embedded_orientation", message: "out of memory")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(oriented)) }

        let width = Int(gdk_pixbuf_get_width(oriented))
        let height = Int(gdk_pixbuf_get_height(oriented))
        let target = fittedSize(width: width, height: height, maxPixelSize: maxPixelSize)
        let hasAlpha = gdk_pixbuf_get_has_alpha(oriented) != 0
        let final: OpaquePointer
        if hasAlpha {
            // JPEG has no alpha: lay the image over white (both "checks" white) while scaling.
            guard
                let flattened = gdk_pixbuf_composite_color_simple(
                    oriented, Int32(target.width), Int32(target.height), GDK_INTERP_HYPER, 255, 8, 0xFFFFFF, 0xFFFFFF)
            else { throw PixbufError(call: "gdk_pixbuf_composite_color_simple", message: "out of memory") }
            final = flattened
        } else if target.width != width || target.height != height {
            guard let scaled = gdk_pixbuf_scale_simple(oriented, Int32(target.width), Int32(target.height), GDK_INTERP_HYPER)
            else { throw PixbufError(call: "gdk_pixbuf_scale_simple", message: "out of memory") }
            final = scaled
        } else {
            final = g_object_ref(UnsafeMutableRawPointer(oriented)).map(OpaquePointer.init)!
        }
        defer { g_object_unref(UnsafeMutableRawPointer(final)) }
        let jpeg = try encodeJPEG(final, quality: quality)
        return Encoded(jpeg: jpeg, width: Int(gdk_pixbuf_get_width(final)), height: Int(gdk_pixbuf_get_height(final)))
    }

    /// The size that fits `width`×`height` within `maxPixelSize` on both sides, keeping the
    /// aspect ratio; the size itself when it already fits.
    static func fittedSize(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > maxPixelSize, longer > 0 else { return (width, height) }
        let scale = Double(maxPixelSize) / Double(longer)
        let fitted = { (side: Int) in side == longer ? maxPixelSize : max(1, min(maxPixelSize, Int((Double(side) * scale).rounded()))) }
        return (fitted(width), fitted(height))
    }

    /// Decodes the bytes with a pixbuf loader; returns a pixbuf the caller owns.
    private static func decode(_ data: Data, maxPixelSize: Int) throws(PixbufError) -> OpaquePointer {
        guard !data.isEmpty else { throw PixbufError(call: "gdk_pixbuf_loader_write", message: "the file is empty") }
        guard let loader = gdk_pixbuf_loader_new() else {
            throw PixbufError(call: "gdk_pixbuf_loader_new", message: "out of memory")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        // Asks the loader to decode at most `maxPixelSize` on the longer side, as soon as it
        // knows the size (JPEG then decodes at a reduced scale instead of at full size).
        Signal.connect(UnsafeMutableRawPointer(loader), "size-prepared") { emission in
            let width = Int(emission.int32(0))
            let height = Int(emission.int32(1))
            let fitted = fittedSize(width: width, height: height, maxPixelSize: maxPixelSize)
            guard fitted.width != width || fitted.height != height, let loader = emission.instance else { return }
            gdk_pixbuf_loader_set_size(loader.assumingMemoryBound(to: GdkPixbufLoader.self), Int32(fitted.width), Int32(fitted.height))
        }

        var error: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBytes { buffer in
            gdk_pixbuf_loader_write(loader, buffer.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(buffer.count), &error)
        }
        if written == 0 {
            let message = takeError(&error)
            // close must still be called; its error adds nothing to the first one.
            var ignored: UnsafeMutablePointer<GError>?
            _ = gdk_pixbuf_loader_close(loader, &ignored)
            _ = takeError(&ignored)
            throw PixbufError(call: "gdk_pixbuf_loader_write", message: message)
        }
        guard gdk_pixbuf_loader_close(loader, &error) != 0 else {
            throw PixbufError(call: "gdk_pixbuf_loader_close", message: takeError(&error))
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw PixbufError(call: "gdk_pixbuf_loader_get_pixbuf", message: "no image in the data")
        }
        // The loader owns its pixbuf; keep it past the loader.
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return pixbuf
    }

    /// Encodes a pixbuf as JPEG bytes.
    private static func encodeJPEG(_ pixbuf: OpaquePointer, quality: Int) throws(PixbufError) -> Data {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = withOptions(["quality": String(max(0, min(100, quality)))]) { keys, values in
            gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", keys, values, &error)
        }
        guard saved != 0, let buffer else {
            throw PixbufError(call: "gdk_pixbuf_save_to_bufferv", message: takeError(&error))
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    /// Calls `body` with NULL-terminated C arrays of option keys and values.
    private static func withOptions<Result>(
        _ options: [String: String],
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pairs = options.sorted { $0.key < $1.key }
        var keys: [UnsafeMutablePointer<CChar>?] = pairs.map { strdup($0.key) } + [nil]
        var values: [UnsafeMutablePointer<CChar>?] = pairs.map { strdup($0.value) } + [nil]
        defer {
            for pointer in keys + values { free(pointer) }
        }
        return keys.withUnsafeMutableBufferPointer { keyBuffer in
            values.withUnsafeMutableBufferPointer { valueBuffer in
                body(keyBuffer.baseAddress!, valueBuffer.baseAddress!)
            }
        }
    }

    /// GLib's message of a `GError`, which is freed.
    private static func takeError(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer {
            if error != nil { g_error_free(error) }
            error = nil
        }
        guard let message = error?.pointee.message else { return "unknown error" }
        return String(cString: message)
    }
}
