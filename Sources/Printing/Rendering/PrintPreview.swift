import CCairo
import CPopplerShims
import Foundation
import ShareSheet

/// Draws the first pages of a print job as pictures, from the PDF the job makes, so a window
/// shows what will come out of the printer (or into the saved PDF) before anything is sent.
///
/// Only the first pages are drawn, whatever the length: the renderer keeps just those, and a
/// passed-through PDF is opened but only its first pages are drawn. The count of all pages
/// comes from the layout the renderer does anyway.
enum PrintPreview {
    /// How many pages are drawn.
    static let drawnPages = 2

    /// Renders the job's first pages as PNG images `width` pixels wide.
    /// - Throws: `ShareError` naming the item that cannot be printed, as printing would.
    static func render(items: [Any], info: PrintInfo?, paper: PaperSize, width: Int) throws -> PreviewPages {
        let renderer = try PrintJobRenderer(
            items: items, info: info, paper: paper, pageSelection: PageRanges("1-\(drawnPages)"))
        let total = renderer.pageCounts.reduce(0) { $0 + ($1 ?? 0) }
        let documents = try renderer.render()
        defer { renderer.removeDocuments() }
        var images: [Data] = []
        for document in documents where images.count < drawnPages {
            images += try pictures(of: document.url, upTo: drawnPages - images.count, width: width)
        }
        return PreviewPages(images: images, pageCount: max(total, images.count))
    }

    /// The first `count` pages of the PDF at `url`, drawn with poppler on white.
    static func pictures(of url: URL, upTo count: Int, width: Int) throws -> [Data] {
        guard cpoppler_shims_load() == 0 else {
            let why = cpoppler_shims_load_error().map { String(cString: $0) } ?? "unknown"
            throw ShareError(.unavailable, "print preview: poppler cannot be loaded: \(why)")
        }
        var message: UnsafeMutablePointer<CChar>?
        guard let document = cpoppler_shims_open(url.absoluteString, &message) else {
            defer { cpoppler_shims_free(message) }
            let why = message.map { String(cString: $0) } ?? "cannot be opened"
            throw ShareError(.badData, "print preview: \(url.lastPathComponent): \(why)")
        }
        defer { cpoppler_shims_unref(UnsafeMutableRawPointer(document)) }
        let pages = min(Int(cpoppler_shims_page_count(document)), count)
        var images: [Data] = []
        for index in 0..<pages {
            guard let page = cpoppler_shims_page(document, Int32(index)) else { break }
            defer { cpoppler_shims_unref(UnsafeMutableRawPointer(page)) }
            var pageWidth = 0.0
            var pageHeight = 0.0
            cpoppler_shims_page_size(page, &pageWidth, &pageHeight)
            guard pageWidth > 0, pageHeight > 0 else { continue }
            let scale = Double(width) / pageWidth
            images.append(try draw(width: width, height: Int((pageHeight * scale).rounded()), scale: scale) { cr in
                cpoppler_shims_render(page, UnsafeMutableRawPointer(cr))
            })
        }
        return images
    }

    /// Draws on a white image of the given size and returns it as PNG.
    private static func draw(width: Int, height: Int, scale: Double, _ body: (OpaquePointer) -> Void) throws -> Data {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(max(height, 1))) else {
            throw ShareError(.ioError, "print preview: cannot make an image")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let sink = PNGSink()
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ShareError(.ioError, "print preview: cannot write the image: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }

    /// Collects what cairo writes.
    private final class PNGSink {
        var data = Data()
    }
}
