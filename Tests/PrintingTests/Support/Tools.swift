import CCairo
import Foundation
import LocalTestSupport

/// `pdfinfo`'s fields.
struct PDFInfo {
    let fields: [String: String]

    init(_ url: URL) throws {
        var fields: [String: String] = [:]
        for line in try Command.output("pdfinfo", [url.path]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.fields = fields
    }

    var pages: Int { Int(fields["Pages"] ?? "") ?? -1 }

    /// "595.276 x 841.89 pts (A4)" → (595.276, 841.89)
    var pageSize: (width: Double, height: Double) {
        let parts = (fields["Page size"] ?? "").split(separator: " ")
        guard parts.count >= 3, let width = Double(parts[0]), let height = Double(parts[2]) else { return (0, 0) }
        return (width, height)
    }
}

/// The text of `url` (pages `first...last` when given), as pdftotext reads it.
func pdfText(_ url: URL, page: Int? = nil) throws -> String {
    var arguments = ["-layout"]
    if let page { arguments += ["-f", String(page), "-l", String(page)] }
    return try Command.output("pdftotext", arguments + [url.path, "-"])
}

/// Writes a PNG of `width`×`height` pixels: a colored frame with a diagonal, drawn by Cairo.
func writePNG(width: Int, height: Int, to url: URL) {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
    let cr = cairo_create(surface)!
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1)
    cairo_set_line_width(cr, 4)
    cairo_rectangle(cr, 2, 2, Double(width - 4), Double(height - 4))
    cairo_move_to(cr, 0, 0)
    cairo_line_to(cr, Double(width), Double(height))
    cairo_stroke(cr)
    cairo_surface_write_to_png(surface, url.path)
    cairo_destroy(cr)
    cairo_surface_destroy(surface)
}
