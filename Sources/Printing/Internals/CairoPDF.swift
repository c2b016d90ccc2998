import CCairo
import Foundation

/// One PDF file being written by Cairo, page by page. Used by one thread at a time.
final class CairoPDFWriter {
    private let surface: OpaquePointer
    /// The drawing context of the page being drawn.
    let cr: OpaquePointer
    private(set) var pageCount = 0
    private var finished = false

    /// Starts a PDF at `path`; pages take their size from `beginPage(size:)`.
    init(path: String) throws {
        let surface = cairo_pdf_surface_create(path, 595.276, 841.89)!
        try Self.check(cairo_surface_status(surface), "cairo_pdf_surface_create")
        self.surface = surface
        cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5)
        cr = cairo_create(surface)
        try Self.check(cairo_status(cr), "cairo_create")
    }

    deinit {
        if !finished { cairo_surface_finish(surface) }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Sets the size of the next page (in points) and resets the drawing state.
    func beginPage(size: CGSize) {
        cairo_pdf_surface_set_size(surface, size.width, size.height)
        cairo_save(cr)
    }

    /// Ends the page being drawn.
    func endPage() throws {
        cairo_restore(cr)
        cairo_show_page(cr)
        pageCount += 1
        try Self.check(cairo_status(cr), "cairo_show_page")
    }

    /// Writes what is left and closes the file.
    func finish() throws {
        finished = true
        cairo_surface_finish(surface)
        try Self.check(cairo_surface_status(surface), "cairo_surface_finish")
    }

    static func check(_ status: cairo_status_t, _ call: String) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintFailure(call: call, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
